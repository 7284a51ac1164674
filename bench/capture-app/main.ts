/**
 * What recording costs in the app: browser mode with the fake microphone playing the conversation
 * (looped); CPU of the renderer (and its threads), the audio service and the app core while the
 * visit screen sits idle (the reference) and while it records. The method is in docs/benchmarks.md.
 *
 *   npm run build && node --import tsx bench/capture-app/main.ts [--quick]   # --quick or ROUNDS=1: one round
 */
import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { startVisit } from '../support/app-page';
import { machineLine, mean, ratio, saveHeadline, writeSection } from '../report';
import { CONVERSATION_WAV, QUICK, requireBuild, runBenchmark, startApp, startChromium } from '../support/run';

const WINDOW_S = 20;
const SETTLE_MS = 5_000;
const ROUNDS = QUICK ? 1 : Number(process.env.ROUNDS ?? 2);
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
/** The renderer's threads that carry audio: Web Audio's render thread (the AudioWorklet's) and the
 *  device threads that feed it. Linux cuts thread names at 15 characters. */
const WEB_AUDIO_THREAD = /^(Realtime AudioW|AudioOutputDevi|AudioInputDevic)/;

/** id, parent, name and utime + stime (clock ticks) of each entry of `dir` (/proc, /proc/<pid>/task). */
function stats(dir: string) {
  const out: { id: number; ppid: number; name: string; ticks: number }[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync(dir).filter((n) => /^\d+$/.test(n));
  } catch {
    // the process exited while we looked
  }
  for (const entry of entries) {
    let stat: string;
    try {
      stat = readFileSync(`${dir}/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // comm may hold spaces and parentheses: the fields after it start at the last ')'.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    const [id, ppid, ticks] = [Number(entry), Number(fields[1]), Number(fields[11]) + Number(fields[12])];
    out.push({ id, ppid, name: stat.slice(stat.indexOf('(') + 1, close), ticks });
  }
  return out;
}

/**
 * The browser's processes by role. The window's processes are all of them but the audio service:
 * the renderer (the page, its audio worklet and Silero), the GPU process (compositing the page's
 * frames), the browser process and the network service (the contract socket's bytes). The audio
 * service is the fake microphone here, a real device's driver on a laptop: reported apart.
 */
type Role = 'renderer' | 'gpu' | 'network' | 'audioService' | 'browser' | 'other';
function roleOf(pid: number, browserPid: number): Role {
  if (pid === browserPid) return 'browser';
  let args: string[] = [];
  try {
    // Split on spaces too: Chromium rewrites its children's argv into one string (setproctitle).
    args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
  } catch {
    // exited
  }
  if (args.includes('--type=renderer')) return 'renderer';
  if (args.includes('--type=gpu-process')) return 'gpu';
  if (args.some((a) => a.startsWith('--utility-sub-type=audio.mojom.AudioService'))) return 'audioService';
  if (args.some((a) => a.startsWith('--utility-sub-type=network.mojom.NetworkService'))) return 'network';
  return 'other';
}

/**
 * CPU ticks so far by key: a role in the browser's process tree, `core` (the app core), or
 * `thread <tid> <name>` for each of the renderer's threads.
 */
function snapshot(browser: number, core: number, chunks: number) {
  const all = stats('/proc');
  const tree = new Set([browser]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) if (!tree.has(p.id) && tree.has(p.ppid) && tree.add(p.id)) grew = true;
  }
  const ticks = new Map<string, number>();
  const add = (key: string, n: number) => ticks.set(key, (ticks.get(key) ?? 0) + n);
  for (const p of all) {
    if (p.id === core) add('core', p.ticks);
    if (!tree.has(p.id)) continue;
    const role = roleOf(p.id, browser);
    add(role, p.ticks);
    if (role === 'renderer')
      for (const t of stats(`/proc/${p.id}/task`)) add(`thread ${t.id} ${t.name}`, t.ticks);
  }
  return { ticks, chunks };
}

type Snapshot = ReturnType<typeof snapshot>;
type Use = ReturnType<typeof use>;

/**
 * % of one core between two snapshots (a process or thread born inside the window: all its ticks);
 * the renderer's threads by name, busiest first.
 */
function use(before: Snapshot, after: Snapshot) {
  const pct = (ticks: number) => (100 * ticks) / TICKS_PER_SECOND / WINDOW_S;
  const delta = (key: string) => pct((after.ticks.get(key) ?? 0) - (before.ticks.get(key) ?? 0));
  const threads = new Map<string, number>();
  for (const key of after.ticks.keys()) {
    if (!key.startsWith('thread ')) continue;
    const name = key.split(' ').slice(2).join(' ');
    threads.set(name, (threads.get(name) ?? 0) + delta(key));
  }
  const window = ['renderer', 'gpu', 'network', 'browser', 'other'].reduce(
    (sum, role) => sum + delta(role),
    0,
  );
  return {
    window,
    gpu: delta('gpu'),
    browser: delta('browser'),
    network: delta('network'),
    otherProcesses: delta('other'),
    renderer: delta('renderer'),
    webAudio: [...threads].filter(([n]) => WEB_AUDIO_THREAD.test(n)).reduce((s, [, v]) => s + v, 0),
    audioService: delta('audioService'),
    core: delta('core'),
    threads: [...threads].filter(([, v]) => v > 0.2).sort((a, b) => b[1] - a[1]) as [string, number][],
    chunks: after.chunks - before.chunks,
  };
}

async function round(): Promise<{ idle: Use; recording: Use }> {
  const app = await startApp();
  const pidsBefore = new Set(stats('/proc').map((p) => p.id));
  // Looped (no %noloop): the visit plays for as long as the window lasts.
  const browser = await startChromium({ wav: CONVERSATION_WAV, loop: true });
  const browserPid = stats('/proc').find(
    (p) => !pidsBefore.has(p.id) && p.ppid === process.pid && /chrom/i.test(p.name),
  )?.id;
  if (browserPid === undefined) throw new Error('could not find the Chromium process Playwright started');
  const page: Page = await browser.newPage();
  let chunks = 0;
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') chunks++;
    }),
  );
  const measure = async () => {
    const before = snapshot(browserPid, app.host.pid, chunks);
    await page.waitForTimeout(WINDOW_S * 1_000);
    return use(before, snapshot(browserPid, app.host.pid, chunks));
  };
  await page.goto(app.host.launchUrl);
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await page.getByRole('heading', { name: 'Next visit' }).waitFor();
  // Let the page settle before the reference window.
  await page.waitForTimeout(SETTLE_MS);
  const idle = await measure();
  await startVisit(page);
  await page.waitForTimeout(SETTLE_MS);
  const recording = await measure();
  await page.getByRole('button', { name: 'End visit' }).click();
  await browser.close();
  await app.close();
  return { idle, recording };
}

const fixed = (n: number, digits = 2) => n.toFixed(digits);

runBenchmark('capture-app', 6 * 60_000, async () => {
  requireBuild();
  const started = Date.now();
  const rounds: { idle: Use; recording: Use }[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    rounds.push(await round());
    console.log(`round ${k + 1}:`, JSON.stringify(rounds.at(-1)));
  }
  const row = (label: string, pick: (u: Use) => number) => {
    const list = (values: number[]) => values.map((v) => fixed(v)).join(' / ');
    const delta = rounds.map((r) => pick(r.recording) - pick(r.idle));
    return `| ${label} | ${list(rounds.map((r) => pick(r.idle)))} | ${list(rounds.map((r) => pick(r.recording)))} | ${list(delta)} | ${fixed(mean(delta))} |`;
  };
  const averageOf = (pick: (r: { idle: Use; recording: Use }) => number) => mean(rounds.map(pick));
  const rendererDelta = averageOf((r) => r.recording.renderer - r.idle.renderer);
  const windowDelta = averageOf((r) => r.recording.window - r.idle.window);
  await writeSection(
    'capture-app',
    `## Capture in the app: what recording costs

${machineLine()}. Wall time of the whole script: ${Math.round((Date.now() - started) / 1_000)} s.

Windows of ${WINDOW_S} s, idle on the visit screen (the reference) and recording, after ${SETTLE_MS / 1_000} s to settle;
chunks sent per recording window: ${rounds.map((r) => r.recording.chunks).join(' / ')} (${WINDOW_S * 10} expected).

| process (% of one core) | idle, per round | recording, per round | recording − idle, per round | mean cost of recording |
| --- | --- | --- | --- | --- |
${row("renderer's Web Audio threads", (u) => u.webAudio)}
${row('renderer, all threads', (u) => u.renderer)}
${row('GPU process (compositing)', (u) => u.gpu)}
${row('browser process', (u) => u.browser)}
${row('network service', (u) => u.network)}
${row('other helper processes', (u) => u.otherProcesses)}
${row("**the window's processes together**", (u) => u.window)}
${row('audio service (the fake device; apart)', (u) => u.audioService)}
${row('app core (main process)', (u) => u.core)}

The renderer's threads while recording (Linux names, cut at 15 characters; \`chromium\` is the
main thread, where Silero runs): ${rounds.map((r, k) => `round ${k + 1}: ${r.recording.threads.map(([n, p]) => `${n} ${fixed(p, 1)}`).join(', ')}`).join('; ')}.

**Recording in the window's processes together: ${fixed(windowDelta)} % of one core over idle** (goal ≤ 5 %${windowDelta <= 5 ? ', met' : ', **not met**'}; the renderer alone ${fixed(rendererDelta)} %).

Run: \`node --import tsx bench/capture-app/main.ts\` (build first; \`--quick\`: one round).`,
  );
  const coreIdle = averageOf((r) => r.idle.core);
  const coreRecording = averageOf((r) => r.recording.core);
  saveHeadline('capture-app', [
    {
      metric: "recording in the window's processes, % of a core over idle (lower is better)",
      ours: `${fixed(windowDelta)} %`,
      reference: `idle visit screen ${fixed(averageOf((r) => r.idle.window))} %`,
      goal: '≤ 5 %',
      met: windowDelta <= 5,
    },
    {
      metric: 'of which the renderer (capture, VAD, the page), % of a core over idle (lower is better)',
      ours: `${fixed(rendererDelta)} %`,
      reference: `idle visit screen ${fixed(averageOf((r) => r.idle.renderer))} %`,
    },
    {
      metric: 'app core (main process) while recording at 1×, % of a core (lower is better)',
      ours: `${fixed(coreRecording)} %`,
      reference: `idle ${fixed(coreIdle)} %`,
      ratio: ratio(coreRecording, coreIdle),
    },
  ]);
});
