import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU by process and thread from /proc (bench/capture-app): snapshots of the browser's process
 * tree by role, the app core, and each renderer's threads; the % of a core between two of them.
 */
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
export function snapshot(browser: number, core: number) {
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
    if (role !== 'renderer') continue;
    // Each renderer on its own too: the app's page and a call tab's (issue 30) are two.
    add(`process ${p.id}`, p.ticks);
    for (const t of stats(`/proc/${p.id}/task`)) {
      add(`thread ${t.id} ${t.name}`, t.ticks);
      if (WEB_AUDIO_THREAD.test(t.name) && t.name.startsWith('Realtime')) ticks.set(`worklet ${p.id}`, 1);
    }
  }
  return { ticks };
}

/** The renderer that runs an AudioWorklet now: the app's page, while it records. */
export function workletRenderer(snap: Snapshot): number | undefined {
  const key = [...snap.ticks.keys()].find((k) => k.startsWith('worklet '));
  return key ? Number(key.split(' ')[1]) : undefined;
}

export type Snapshot = ReturnType<typeof snapshot>;
export type Use = ReturnType<typeof use>;

/**
 * % of one core between two snapshots (a process or thread born inside the window: all its ticks);
 * the renderer's threads by name, busiest first.
 */
export function use(before: Snapshot, after: Snapshot, seconds: number) {
  const pct = (ticks: number) => (100 * ticks) / TICKS_PER_SECOND / seconds;
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
    threads: [...threads].sort((a, b) => b[1] - a[1]) as [string, number][],
    /** Each renderer process's share, by pid. */
    renderers: [...after.ticks.keys()]
      .filter((k) => k.startsWith('process '))
      .map((k) => [Number(k.split(' ')[1]), delta(k)]) as [number, number][],
  };
}
