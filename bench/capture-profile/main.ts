/**
 * Where recording's time goes in the window (issue 19), per cause: browser mode with its renderer
 * built again with source maps (into a temporary folder, so out/ stays as shipped), the fake
 * microphone playing the conversation in a loop, and over 20 s of recording
 *
 * - a Chromium trace: each thread's busy time by kind of work (script, style and layout, paint,
 *   garbage collection, message handling…), from the events' own thread time;
 * - V8 CPU profiles of the page's main thread and of its voice-detection worker (issue 40: Silero
 *   runs there since issue 36), their JavaScript attributed to the original source files through
 *   the source maps (Silero's wasm, vad-web, React, the capture code, the store…), with each
 *   one's largest functions.
 *
 * Tracing and profiling cost time of their own, so these are shares of the work, not the cost of
 * recording (bench/capture-app measures that, untraced).
 *
 *   npm run build && node --import tsx bench/capture-profile/main.ts
 */
import type { CDPSession, Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type UserConfig } from 'vite';
import electronViteConfig from '../../electron.vite.config';
import { startHostProcess } from '../../e2e/support/browser-host-process';
import { startVisit } from '../support/app-page';
import { machineLine, writeSection } from '../report';
import { profileWorker } from './worker-profiler';
import {
  MAIN_THREAD_NATIVES,
  VOICE_WORKER_NATIVES,
  largestFunctions,
  scriptWork,
  sourceMapsOf,
  type CpuProfile,
} from './profile-attribution';
import {
  CONVERSATION_WAV,
  onCleanup,
  requireBuild,
  runBenchmark,
  startChromium,
  tempDir,
} from '../support/run';

const WINDOW_S = 20;
/**
 * The trace starts 85 s after Start, as capture-app's recording window does: before that V8 is
 * still optimising the voice model's WebAssembly, and Silero's share is its unoptimised code's
 * (1.64 % of a core at 5–25 s after Start, in the run that found this).
 */
const SETTLE_MS = 85_000;

/** The renderer as shipped, plus source maps, in `dir`. */
async function buildRendererWithSourceMaps(dir: string): Promise<void> {
  const { renderer } = electronViteConfig as { renderer: UserConfig };
  await build({
    ...renderer,
    configFile: false,
    logLevel: 'warn',
    build: { ...renderer.build, sourcemap: true, outDir: dir, emptyOutDir: true },
  });
}

// ---- the trace --------------------------------------------------------------------------------

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tts?: number;
  tdur?: number;
  args?: { name?: string; data?: unknown };
}

/** Trace events by kind of work; anything else on a thread is its own name. */
const WORK_KINDS: [RegExp, string][] = [
  [/^(MinorGC|MajorGC|V8\.GC|BlinkGC|ThreadState::|CppGC)/, 'garbage collection'],
  [
    /^(UpdateLayoutTree|Layout|RecalculateStyles|ScheduleStyleRecalculation|InvalidateLayout|LayoutInvalidationTracking)/,
    'style and layout',
  ],
  [
    /^(PrePaint|Paint|PaintImage|Layerize|UpdateLayer|UpdateLayerTree|Commit|CompositeLayers|RasterTask|Decode|ProxyMain|LocalFrameView::|Animation)/,
    'paint and compositing',
  ],
  [
    /^(FunctionCall|EvaluateScript|v8\.|V8\.|TimerFire|FireAnimationFrame|RunMicrotasks|EventDispatch|XHRReadyStateChange|v8\.callFunction|v8\.run|RunTask)/,
    'script (see the profile)',
  ],
  [
    /^(HandlePostMessage|MessagePort|ReceiveMessage|WebSocket|ResourceReceive|ResourceSendRequest)/,
    'messages and sockets',
  ],
];

function kindOf(name: string): string {
  return WORK_KINDS.find(([pattern]) => pattern.test(name))?.[1] ?? name;
}

/**
 * Self thread time (ms) per kind of work for each thread of `pid`: complete events ('X') nest on
 * a thread, so an event's self time is its thread duration less its children's.
 */
function threadWork(events: TraceEvent[], pid: number): Map<string, Map<string, number>> {
  const names = new Map<number, string>();
  for (const e of events)
    if (e.ph === 'M' && e.name === 'thread_name' && e.pid === pid) names.set(e.tid, String(e.args?.name));
  const byThread = new Map<number, TraceEvent[]>();
  for (const e of events) {
    if (e.pid !== pid || e.ph !== 'X' || e.tdur === undefined || e.dur === undefined) continue;
    (byThread.get(e.tid) ?? byThread.set(e.tid, []).get(e.tid)!).push(e);
  }
  const result = new Map<string, Map<string, number>>();
  for (const [tid, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    const self = new Map<string, number>();
    const stack: { end: number; kind: string; childTime: number; tdur: number }[] = [];
    const close = (upTo: number) => {
      while (stack.length > 0 && stack.at(-1)!.end <= upTo) {
        const done = stack.pop()!;
        self.set(done.kind, (self.get(done.kind) ?? 0) + Math.max(0, done.tdur - done.childTime) / 1_000);
        if (stack.length > 0) stack.at(-1)!.childTime += done.tdur;
      }
    };
    for (const e of list) {
      close(e.ts);
      stack.push({ end: e.ts + e.dur!, kind: kindOf(e.name), childTime: 0, tdur: e.tdur! });
    }
    close(Number.POSITIVE_INFINITY);
    result.set(names.get(tid) ?? `thread ${tid}`, self);
  }
  return result;
}

// ---- the run -----------------------------------------------------------------------------------

async function profileRecording(page: Page, cdp: CDPSession) {
  const worker = await profileWorker(cdp, /speech-worker[^/]*\.js$/);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  const browser = page.context().browser()!;
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8',
      'blink',
      'cc',
      'gpu',
      'toplevel',
      'audio',
      'webaudio',
      'media',
      // The thread pool's tasks (which of them run while recording) and the socket's bytes.
      'base',
      'mojom',
      'ipc',
      'net',
      'webrtc',
    ],
  });
  await cdp.send('Profiler.start');
  await worker.start();
  await page.waitForTimeout(WINDOW_S * 1_000);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  const workerProfile = await worker.stop();
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  return { profile, workerProfile, events: trace.traceEvents };
}

const pct = (ms: number) => (ms / (WINDOW_S * 1_000)) * 100;
const fixed = (n: number, digits = 2) => n.toFixed(digits);

runBenchmark('capture-profile', 4 * 60_000, async () => {
  requireBuild();
  const started = Date.now();
  const rendererDir = await tempDir('scribe-profile-renderer-');
  await buildRendererWithSourceMaps(rendererDir);
  const dataDir = await mkdtemp(join(tmpdir(), 'scribe-profile-'));
  onCleanup(() => rm(dataDir, { recursive: true, force: true }));
  const host = await startHostProcess(dataDir, ['--renderer-dir', rendererDir]);
  onCleanup(() => host.stop());
  const browser = await startChromium({ wav: CONVERSATION_WAV, loop: true });
  const page = await browser.newPage();
  await page.goto(host.launchUrl);
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await page.getByRole('heading', { name: 'Next visit' }).waitFor();
  await startVisit(page);
  await page.waitForTimeout(SETTLE_MS);
  const cdp = await page.context().newCDPSession(page);
  const { profile, workerProfile, events } = await profileRecording(page, cdp);
  await page.getByRole('button', { name: 'End visit' }).click();

  // The page's renderer: the process whose main thread ran its script.
  const mainThreadOf = (list: TraceEvent[]) =>
    list.find(
      (e) =>
        e.ph === 'M' &&
        e.name === 'thread_name' &&
        e.args?.name === 'CrRendererMain' &&
        list.some((x) => x.pid === e.pid && x.ph === 'X' && x.name === 'FunctionCall'),
    )?.pid;
  const rendererPid = mainThreadOf(events);
  if (rendererPid === undefined) throw new Error('the trace has no renderer main thread that ran script');
  const threads = threadWork(events, rendererPid);
  const maps = await sourceMapsOf(rendererDir);
  const script = scriptWork(profile, maps, MAIN_THREAD_NATIVES);
  const workerScript = scriptWork(workerProfile, maps, VOICE_WORKER_NATIVES);

  const threadRows = [...threads]
    .map(([name, kinds]) => [name, [...kinds.values()].reduce((a, b) => a + b, 0), kinds] as const)
    .filter(([, total]) => pct(total) >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  const main = threads.get('CrRendererMain') ?? new Map<string, number>();
  const mainRows = [...main].filter(([, ms]) => pct(ms) >= 0.02).sort((a, b) => b[1] - a[1]);
  const causeTable = (byCause: Map<string, number>) => {
    const busy = [...byCause].filter(([cause]) => cause !== '(idle)' && cause !== '(root)');
    const busyTotal = busy.reduce((a, [, ms]) => a + ms, 0);
    return busy
      .sort((a, b) => b[1] - a[1])
      .filter(([, ms]) => pct(ms) >= 0.01)
      .map(([cause, ms]) => `| ${cause} | ${fixed(pct(ms))} | ${fixed((100 * ms) / busyTotal, 1)} % |`)
      .join('\n');
  };
  const functionTable = (of: CpuProfile) =>
    largestFunctions(of, maps, 8)
      .map(([name, ms]) => `| \`${name}\` | ${fixed(pct(ms))} |`)
      .join('\n');

  await writeSection(
    'capture-profile',
    `## Where recording's time goes in the window

${machineLine()}. Wall time of the whole script: ${Math.round((Date.now() - started) / 1_000)} s.
One recording of the looped conversation, ${WINDOW_S} s traced after ${SETTLE_MS / 1_000} s to settle;
figures are % of one core over the window (thread time from the trace; the sampled profile for
JavaScript). Tracing and sampling add their own cost: compare shares, and take the cost of
recording from the capture-app section.

The renderer's threads, busy time from the trace:

| thread | % of a core | largest kinds of work |
| --- | ---: | --- |
${threadRows
  .map(
    ([name, total, kinds]) =>
      `| ${name} | ${fixed(pct(total))} | ${[...kinds]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([kind, ms]) => `${kind} ${fixed(pct(ms))}`)
        .join(', ')} |`,
  )
  .join('\n')}

The main thread by kind of work (trace):

| kind of work | % of a core |
| --- | ---: |
${mainRows.map(([kind, ms]) => `| ${kind} | ${fixed(pct(ms))} |`).join('\n')}

The main thread's samples by cause (V8 profile, sampled every 250 µs; "(program)" is the
browser's own work outside JavaScript: tasks, messages, style, layout, paint):

| cause | % of a core | share of the busy samples |
| --- | ---: | ---: |
${causeTable(script)}

Its largest functions (self time, where each is in the source):

| function | % of a core |
| --- | ---: |
${functionTable(profile)}

The voice-detection worker's samples by cause (its own V8 profile, in the same window; the
inference is onnxruntime's WebAssembly):

| cause | % of a core | share of the busy samples |
| --- | ---: | ---: |
${causeTable(workerScript)}

Its largest functions:

| function | % of a core |
| --- | ---: |
${functionTable(workerProfile)}

Run: \`node --import tsx bench/capture-profile/main.ts\` (build first).`,
  );
});
