/**
 * Chromium with a WAV file as its microphone, and the processes whose CPU time the benchmark
 * counts: the renderer(s), where Web Audio and the worklet run, and the audio service, which
 * reads the file and delivers it at the device's rate.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { CHROMIUM_FLAGS, chromiumExecutable, fakeMicrophoneFlags } from '../../e2e/support/chromium';

export interface Launched {
  browser: Browser;
  page: Page;
  /** The browser process (Playwright spawns it as a child of this process). */
  pid: number;
}

/** One browser per source file: the fake device's file is a launch flag. */
export async function launchWithMicrophone(wav: string, pageUrl: string): Promise<Launched> {
  const executablePath = chromiumExecutable();
  if (!executablePath) throw new Error('no Chromium: install Debian chromium or set CHROMIUM_PATH');
  const before = new Set(chromiumChildren());
  const browser = await chromium.launch({
    executablePath,
    args: [
      ...CHROMIUM_FLAGS,
      // Played once, then silence (each new capture stream starts it again).
      ...fakeMicrophoneFlags(wav),
    ],
    // Playwright mutes headless audio; the app does not, so neither does the benchmark.
    ignoreDefaultArgs: ['--mute-audio'],
  });
  try {
    const pid = chromiumChildren().find((p) => !before.has(p));
    if (pid === undefined) throw new Error('could not find the Chromium process Playwright started');
    const page = await browser.newPage();
    await page.goto(pageUrl);
    await page.waitForFunction(() => 'harness' in globalThis);
    return { browser, page, pid };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

function chromiumChildren(): number[] {
  return listProcesses()
    .filter((p) => p.ppid === process.pid && /chrom/i.test(p.comm))
    .map((p) => p.pid);
}

export type Role = 'renderer' | 'audioService' | 'browser' | 'other';

/** The renderer's threads that carry audio: Web Audio's render thread (the AudioWorklet's, when
 *  there is one) and the device threads that feed it. Linux cuts names at 15 characters. */
const WEB_AUDIO_THREAD = /^(Realtime AudioW|AudioOutputDevi|AudioInputDevic)/;

export interface ProcessTimes {
  pid: number;
  role: Role;
  /** utime + stime, in clock ticks. */
  ticks: number;
  /** Per thread id, for the renderer's Web Audio threads only. */
  webAudioThreads: Map<number, number>;
}

/** CPU time so far of the browser and every process below it, by role. */
export function processTimes(browserPid: number): ProcessTimes[] {
  const all = listProcesses();
  const tree = new Set([browserPid]);
  // Parents come before children in pid order except after pid wrap-around; loop until stable.
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (!tree.has(p.pid) && tree.has(p.ppid)) {
        tree.add(p.pid);
        grew = true;
      }
    }
  }
  return all
    .filter((p) => tree.has(p.pid))
    .map((p) => {
      const role = roleOf(p.pid);
      const webAudioThreads = new Map<number, number>();
      if (role === 'renderer') {
        for (const thread of listStats(`/proc/${p.pid}/task`)) {
          if (WEB_AUDIO_THREAD.test(thread.comm)) webAudioThreads.set(thread.pid, thread.ticks);
        }
      }
      return { pid: p.pid, role, ticks: p.ticks, webAudioThreads };
    });
}

function roleOf(pid: number): Role {
  let args: string[];
  try {
    // Split on spaces too: Chromium rewrites its children's argv into one string (setproctitle).
    args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
  } catch {
    return 'other';
  }
  if (args.includes('--type=renderer')) return 'renderer';
  if (args.some((a) => a.startsWith('--utility-sub-type=audio.mojom.AudioService'))) return 'audioService';
  if (!args.some((a) => a.startsWith('--type='))) return 'browser';
  return 'other';
}

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  ticks: number;
}

function listProcesses(): ProcStat[] {
  return listStats('/proc');
}

/** The stat line of every numeric entry of `dir` (/proc: processes; /proc/<pid>/task: threads). */
function listStats(dir: string): ProcStat[] {
  const out: ProcStat[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out; // the process exited while we looked
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`${dir}/${name}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // comm may hold spaces and parentheses: the fields after it start at the last ')'.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    out.push({
      pid: Number(name),
      comm: stat.slice(stat.indexOf('(') + 1, close),
      // Fields 4, 14 and 15 of proc(5), counted from 1; `fields` starts at field 3.
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
    });
  }
  return out;
}

export const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

export type CpuUse = Record<Role | 'webAudio' | 'all', number>;

/** % of one core each role (and the renderer's Web Audio threads) used between two snapshots. */
export function cpuPercent(before: ProcessTimes[], after: ProcessTimes[], seconds: number): CpuUse {
  const start = new Map(before.map((p) => [p.pid, p]));
  const used: CpuUse = { renderer: 0, webAudio: 0, audioService: 0, browser: 0, other: 0, all: 0 };
  for (const p of after) {
    const earlier = start.get(p.pid);
    // A process (or thread) born inside the window spent all its ticks inside it.
    const ticks = p.ticks - (earlier?.ticks ?? 0);
    used[p.role] += ticks;
    used.all += ticks;
    for (const [tid, threadTicks] of p.webAudioThreads) {
      used.webAudio += threadTicks - (earlier?.webAudioThreads.get(tid) ?? 0);
    }
  }
  for (const key of Object.keys(used) as (keyof CpuUse)[]) {
    used[key] = (100 * used[key]) / TICKS_PER_SECOND / seconds;
  }
  return used;
}
