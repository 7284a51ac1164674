/**
 * A V8 CPU profile's samples by cause and by function (bench/capture-profile): each sample is
 * attributed to its frame's original source through the renderer's source maps, so the page's and
 * the voice worker's time read as Silero, vad-web, the capture code, React, the store…
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
export interface CpuProfile {
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

/**
 * Native functions have no URL: which code called them depends on the thread. On the page's main
 * thread WebSocket's send is the socket and postMessage the worklet's buffers going back (and each
 * chunk going to the voice worker); in the worker postMessage is its verdict going back.
 */
export type NativeSources = Record<string, string>;
export const MAIN_THREAD_NATIVES: NativeSources = {
  send: 'src/renderer/api/socket-api.ts',
  postMessage: 'src/renderer/audio/capture-graph.ts',
};
export const VOICE_WORKER_NATIVES: NativeSources = {
  postMessage: 'src/renderer/audio/vad/speech-worker.ts',
};

export async function sourceMapsOf(dir: string): Promise<Map<string, SourceMapConsumer>> {
  const maps = new Map<string, SourceMapConsumer>();
  for (const file of readdirSync(join(dir, 'assets'))) {
    if (!file.endsWith('.js.map')) continue;
    const raw = JSON.parse(await readFile(join(dir, 'assets', file), 'utf8')) as RawSourceMap;
    maps.set(file.slice(0, -'.map'.length), new SourceMapConsumer(raw));
  }
  return maps;
}

/** Where a frame's code is in the original sources, where a source map covers its built file. */
function originalOf(frame: ProfileNode['callFrame'], maps: Map<string, SourceMapConsumer>) {
  const map = maps.get(frame.url.split('/').at(-1)!);
  const original = map?.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
  return original?.source ? { source: original.source, line: original.line } : undefined;
}

function sourceOf(
  frame: ProfileNode['callFrame'],
  maps: Map<string, SourceMapConsumer>,
  natives: NativeSources,
): string {
  if (frame.url === '') return natives[frame.functionName] ?? (frame.functionName || '(anonymous native)');
  if (frame.url.startsWith('wasm:')) return frame.url;
  return originalOf(frame, maps)?.source ?? frame.url;
}

/** Self time (ms) by cause: the profile's samples, each attributed to its frame's original source. */
export function scriptWork(
  profile: CpuProfile,
  maps: Map<string, SourceMapConsumer>,
  natives: NativeSources,
): Map<string, number> {
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
      const source = sourceOf(node.callFrame, maps, natives);
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

/**
 * The `count` functions with the most self time (ms), each named with its original source file and
 * line: where a cause's time goes inside it. WebAssembly functions have no names in a release
 * build; they are listed by index.
 */
export function largestFunctions(
  profile: CpuProfile,
  maps: Map<string, SourceMapConsumer>,
  count: number,
): [string, number][] {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byFunction = new Map<string, number>();
  for (let k = 0; k < profile.samples.length; k++) {
    const { callFrame } = nodes.get(profile.samples[k]!)!;
    const name = callFrame.functionName || '(anonymous)';
    if (name === '(idle)' || name === '(root)') continue;
    const label = `${name} (${placeOf(callFrame, maps)})`;
    byFunction.set(label, (byFunction.get(label) ?? 0) + (profile.timeDeltas[k + 1] ?? 0) / 1_000);
  }
  return [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, count);
}

/** `file:line` in the original source, or the built file's name where no map covers it. */
function placeOf(frame: ProfileNode['callFrame'], maps: Map<string, SourceMapConsumer>): string {
  if (frame.url === '') return 'native';
  const original = originalOf(frame, maps);
  if (!original) return frame.url.split('/').at(-1)!;
  // A package's files from its name on, the app's from its top folder (the map's paths are relative
  // to the bundle, so they climb out of it first).
  const source = original.source.includes('node_modules/')
    ? original.source.replace(/^.*node_modules\//, '')
    : original.source.replace(/^.*?\/?((src|bench|e2e)\/)/, '$1');
  return `${source}:${original.line}`;
}
