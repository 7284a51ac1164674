/**
 * Where recording's time goes in the window (issue 19), per cause: browser mode with its renderer
 * built again with source maps (into a temporary folder, so out/ stays as shipped), the fake
 * microphone playing the conversation in a loop, and over 20 s of recording
 *
 * - a Chromium trace: each thread's busy time by kind of work (script, style and layout, paint,
 *   garbage collection, message handling…), from the events' own thread time;
 * - a V8 CPU profile of the page's main thread, its JavaScript attributed to the original source
 *   files through the source maps (Silero's wasm, vad-web, React, the capture code, the store…).
 *
 * Tracing and profiling cost time of their own, so these are shares of the work, not the cost of
 * recording (bench/capture-app measures that, untraced).
 *
 *   npm run build && node --import tsx bench/capture-profile/main.ts
 */
import type { CDPSession, Page } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { build, type UserConfig } from 'vite';
import electronViteConfig from '../../electron.vite.config';
import { startHostProcess } from '../../e2e/support/browser-host-process';
import { startVisit } from '../support/app-page';
import { machineLine, writeSection } from '../report';
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

// ---- the CPU profile ---------------------------------------------------------------------------

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** JavaScript by where it comes from, judged on the original source path. */
const SOURCES: [RegExp, string][] = [
  [/onnxruntime-web|^wasm:|\.wasm$/, 'Silero inference (onnxruntime-web and its wasm)'],
  [/@ricky0123\/vad-web/, 'vad-web frame processor'],
  [/src\/renderer\/audio\/vad\//, 'speech detector (our glue)'],
  [/src\/renderer\/audio\//, 'capture: chunks, level, header (src/renderer/audio)'],
  [/node_modules\/(react-dom|react|scheduler)\//, 'React (render and commit)'],
  [
    /node_modules\/(@react-aria|@react-stately|react-aria|react-aria-components|@internationalized)/,
    'React Aria',
  ],
  [/src\/renderer\/views\/|src\/renderer\/App\.tsx/, 'the window’s components (src/renderer/views)'],
  [/src\/renderer\/store\/|node_modules\/zustand\//, 'the store (src/renderer/store, zustand)'],
  [
    /src\/shared\/contract\/|src\/renderer\/api\//,
    'contract and socket (src/shared/contract, src/renderer/api)',
  ],
  [/node_modules\/zod\//, 'zod'],
];

const NATIVE_SOURCES: Record<string, string> = {
  send: 'src/renderer/api/socket-api.ts',
  postMessage: 'src/renderer/audio/capture-graph.ts',
};

async function sourceMapsOf(dir: string): Promise<Map<string, SourceMapConsumer>> {
  const maps = new Map<string, SourceMapConsumer>();
  for (const file of readdirSync(join(dir, 'assets'))) {
    if (!file.endsWith('.js.map')) continue;
    const raw = JSON.parse(await readFile(join(dir, 'assets', file), 'utf8')) as RawSourceMap;
    maps.set(file.slice(0, -'.map'.length), new SourceMapConsumer(raw));
  }
  return maps;
}

function sourceOf(frame: ProfileNode['callFrame'], maps: Map<string, SourceMapConsumer>): string {
  // Native functions have no URL: WebSocket's send and MessagePort's postMessage are the socket and
  // the worklet's buffers coming back.
  if (frame.url === '')
    return NATIVE_SOURCES[frame.functionName] ?? (frame.functionName || '(anonymous native)');
  if (frame.url.startsWith('wasm:')) return frame.url;
  const file = frame.url.split('/').at(-1)!;
  const map = maps.get(file);
  if (!map) return frame.url;
  const original = map.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
  return original.source ?? frame.url;
}

/** Self time (ms) by cause: the profile's samples, each attributed to its frame's original source. */
function scriptWork(profile: CpuProfile, maps: Map<string, SourceMapConsumer>): Map<string, number> {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byCause = new Map<string, number>();
  const unmatched = new Map<string, number>();
  for (let k = 0; k < profile.samples.length; k++) {
    const node = nodes.get(profile.samples[k]!)!;
    const ms = (profile.timeDeltas[k + 1] ?? 0) / 1_000;
    const name = node.callFrame.functionName;
    let cause: string;
    if (name === '(idle)' || name === '(program)' || name === '(garbage collector)' || name === '(root)')
      cause = name;
    else {
      const source = sourceOf(node.callFrame, maps);
      cause = SOURCES.find(([pattern]) => pattern.test(source))?.[1] ?? 'other JavaScript';
      if (cause === 'other JavaScript') unmatched.set(source, (unmatched.get(source) ?? 0) + ms);
    }
    byCause.set(cause, (byCause.get(cause) ?? 0) + ms);
  }
  const top = [...unmatched].sort((a, b) => b[1] - a[1]).slice(0, 6);
  if (top.length > 0)
    console.log(
      'other JavaScript, largest sources:',
      top.map(([s, ms]) => `${s} ${ms.toFixed(0)} ms`).join('; '),
    );
  return byCause;
}

// ---- the run -----------------------------------------------------------------------------------

async function profileRecording(page: Page, cdp: CDPSession) {
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
  await page.waitForTimeout(WINDOW_S * 1_000);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  return { profile, events: trace.traceEvents };
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
  const { profile, events } = await profileRecording(page, cdp);
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
  const script = scriptWork(profile, maps);

  const threadRows = [...threads]
    .map(([name, kinds]) => [name, [...kinds.values()].reduce((a, b) => a + b, 0), kinds] as const)
    .filter(([, total]) => pct(total) >= 0.05)
    .sort((a, b) => b[1] - a[1]);
  const main = threads.get('CrRendererMain') ?? new Map<string, number>();
  const mainRows = [...main].filter(([, ms]) => pct(ms) >= 0.02).sort((a, b) => b[1] - a[1]);
  const busy = [...script].filter(([cause]) => cause !== '(idle)' && cause !== '(root)');
  const busyTotal = busy.reduce((a, [, ms]) => a + ms, 0);
  const scriptRows = busy.sort((a, b) => b[1] - a[1]).filter(([, ms]) => pct(ms) >= 0.01);

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
${scriptRows.map(([cause, ms]) => `| ${cause} | ${fixed(pct(ms))} | ${fixed((100 * ms) / busyTotal, 1)} % |`).join('\n')}

Run: \`node --import tsx bench/capture-profile/main.ts\` (build first).`,
  );
});
