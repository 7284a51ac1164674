/**
 * The visit both clients play: which 100 ms chunks are speech, the audio each carries, the chunk
 * timer they share, and the heap samples taken along the way (the run needs --expose-gc).
 */
import { syntheticSpeech } from '../../sandbox/test-support/service-client';

export const PARTNER = { partnerId: 'demo-bearer', token: 'sandbox-bearer-partner-token' };
export const PARTNER_LOGIN = { partner_id: PARTNER.partnerId, partner_token: PARTNER.token };
export const CONTEXT = { sections: ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS', 'PLAN'] };
export const CHUNK_MS = 100;
export const CHUNK_BYTES = 3_200;
export const CHUNKS_PER_MINUTE = 60_000 / CHUNK_MS;
/** The recorder's defaults (DEFAULT_RECORDER_TIMING), which the reference client copies. */
export const AUTO_PAUSE_AFTER_MS = 4_000;
export const PRE_ROLL_CHUNKS = 6;
export const KEEP_ALIVE_EVERY_MS = 2_000;
export const MB = 1024 * 1024;
/** The seeds of the visit (with long silences) and of the real-time jitter run (without). */
export const VISIT_SEED = 20261122;
export const JITTER_SEED = 7;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const countInto = (counts: Record<string, number>, key: string) =>
  (counts[key] = (counts[key] ?? 0) + 1);
export function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

/** A small deterministic PRNG (mulberry32), so every run replays the same visit. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The VAD's verdict per 100 ms chunk (1 = speech): turns of 1–4 bursts of speech (0.8–4 s) with
 * breaths between them, 0.3–2.5 s between turns, now and then 5–15 s of quiet (examining, typing)
 * and every 6–12 minutes 30–120 s without a word. Without `longSilences` nothing is quiet long
 * enough to auto-pause (the real-time run, where every chunk must go out).
 */
export function visitPlan(chunks: number, seed: number, longSilences: boolean): Uint8Array {
  const random = prng(seed);
  const between = (loMs: number, hiMs: number) =>
    Math.max(1, Math.round((loMs + (hiMs - loMs) * random()) / 100));
  const plan = new Uint8Array(chunks);
  let at = 0;
  const run = (length: number, speech: boolean) => {
    const end = Math.min(chunks, at + length);
    if (speech) plan.fill(1, at, end);
    at = end;
  };
  let nextLong = longSilences ? between(4 * 60_000, 10 * 60_000) : Infinity;
  while (at < chunks) {
    const bursts = 1 + Math.floor(random() * 4);
    for (let b = 0; b < bursts; b++) {
      run(between(800, 4_000), true);
      if (b < bursts - 1) run(between(100, 600), false);
    }
    if (at >= nextLong) {
      run(between(30_000, 120_000), false);
      nextLong = at + between(6 * 60_000, 12 * 60_000);
    } else if (longSilences && random() < 0.06) run(between(5_000, 15_000), false);
    else run(between(300, 2_500), false);
  }
  return plan;
}

/** Runs of quiet at least as long as the auto-pause delay: each should pause the recorder once. */
export function quietRuns(plan: Uint8Array): number {
  let runs = 0;
  let quiet = 0;
  for (const speech of plan) {
    quiet = speech ? 0 : quiet + CHUNK_MS;
    if (quiet === AUTO_PAUSE_AFTER_MS) runs++;
  }
  return runs;
}

// Chunk audio: 8 speech and 8 near-silent 100 ms buffers, computed once and reused in turn.
const VARIANTS = 8;
const slices = (pcm: Buffer) =>
  Array.from({ length: VARIANTS }, (_, i) => pcm.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES));
const SPEECH = slices(syntheticSpeech([{ speechMs: VARIANTS * CHUNK_MS, silenceMs: 0 }]));
const QUIET = slices(syntheticSpeech([{ speechMs: 0, silenceMs: VARIANTS * CHUNK_MS }], 7));
const SPEECH_B64 = SPEECH.map((b) => b.toString('base64'));
const QUIET_B64 = QUIET.map((b) => b.toString('base64'));
/** Chunk i's audio as the renderer sends it to main (raw PCM). */
export const chunkPcm = (plan: Uint8Array, i: number): Buffer => (plan[i] ? SPEECH : QUIET)[i % VARIANTS]!;
/** Chunk i's audio as a client puts it on the service's stream (base64 in JSON). */
export const chunkBase64 = (plan: Uint8Array, i: number): string =>
  (plan[i] ? SPEECH_B64 : QUIET_B64)[i % VARIANTS]!;

/**
 * heapUsed and arrayBuffers (MB) after two full collections. V8 keeps typed arrays over 64 bytes
 * off its heap, so every 100 ms of audio the process holds counts in arrayBuffers, not heapUsed.
 */
export type Memory = { heapMb: number; buffersMb: number };

export function memoryAfterGc(): Memory {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc)
    throw new Error('run with --expose-gc: node --expose-gc --import tsx bench/core-encounter/main.ts');
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heapMb: heapUsed / MB, buffersMb: arrayBuffers / MB };
}

export type HeapTrace = Awaited<ReturnType<typeof traceFrom>>;

/**
 * The trace: start = the first per-minute sample (after sign-in and the first minute of audio),
 * `minutes` = the samples after each further minute, end = a sample taken now (after End, once the
 * results are in and the stream is done).
 */
export async function traceFrom(samples: Memory[]) {
  await sleep(100);
  const [start, ...minutes] = samples;
  return { start: start!, minutes, end: memoryAfterGc() };
}

/**
 * Plays `count` chunks, one every `intervalMs` of wall clock, catching up at once after a late
 * timer (a replay must not stretch). Samples the heap after each minute of audio when asked.
 */
export async function play(
  count: number,
  intervalMs: number,
  onChunk: (i: number) => void | Promise<void>,
  heap?: Memory[],
): Promise<{ wallMs: number; maxLagMs: number }> {
  const started = performance.now();
  let maxLagMs = 0;
  for (let i = 0; i < count; i++) {
    const due = started + i * intervalMs;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    maxLagMs = Math.max(maxLagMs, performance.now() - due);
    await onChunk(i);
    if (heap && (i + 1) % CHUNKS_PER_MINUTE === 0) heap.push(memoryAfterGc());
  }
  return { wallMs: performance.now() - started, maxLagMs };
}
