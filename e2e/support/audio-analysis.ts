import { readFileSync } from 'node:fs';

/** The conversation the fake microphone plays, with its turn times (scripts/make-conversation-fixture.mjs). */
export interface Conversation {
  samples: Int16Array;
  sampleRate: number;
  turns: { speaker: string; startMs: number; endMs: number }[];
  longSilence: { startMs: number; endMs: number };
}

export function readConversation(wavPath: string, turnsPath: string): Conversation {
  const wav = readFileSync(wavPath);
  const meta = JSON.parse(readFileSync(turnsPath, 'utf8')) as Omit<Conversation, 'samples'>;
  const data = wav.subarray(44); // the fixture script writes a plain 44-byte header
  const samples = new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  return { ...meta, samples };
}

/** RMS in dBFS of each 1,600-sample chunk. */
export function chunkLevels(samples: Int16Array, chunk = 1_600): number[] {
  const out: number[] = [];
  for (let start = 0; start + chunk <= samples.length; start += chunk) {
    let sum = 0;
    for (let k = start; k < start + chunk; k++) sum += samples[k]! * samples[k]!;
    out.push(20 * Math.log10(Math.max(1e-9, Math.sqrt(sum / chunk) / 32_768)));
  }
  return out;
}

/** Normalised cross-correlation of `a` against `b` shifted by `lag` samples (b[k] ~ a[k - lag]). */
function correlationAt(a: Int16Array, b: Int16Array, lag: number, from: number, length: number): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let k = from; k < from + length; k++) {
    const x = a[k - lag] ?? 0;
    const y = b[k] ?? 0;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/** Energy per `hop` samples (sum of squares), for a coarse alignment. */
function envelope(samples: Int16Array, hop: number): number[] {
  const out: number[] = [];
  for (let start = 0; start + hop <= samples.length; start += hop) {
    let sum = 0;
    for (let k = start; k < start + hop; k++) sum += samples[k]! * samples[k]!;
    out.push(Math.log10(1 + sum));
  }
  return out;
}

/**
 * Where the source sits in the received audio: the lag in samples (received[k] ≈ source[k − lag];
 * negative when the received audio starts part-way into the source)
 * that best lines the two up — first on 10 ms energy envelopes over the whole recording (a waveform
 * correlation is too narrow to search coarsely), then sample by sample around it on a stretch of
 * speech. Returns the lag and the waveform correlation there.
 */
export function alignSource(
  source: Int16Array,
  received: Int16Array,
  window: { fromSample: number; length: number },
  maxLagSamples: number,
): { lag: number; correlation: number } {
  const HOP = 160;
  const a = envelope(source, HOP);
  const b = envelope(received, HOP);
  let coarse = 0;
  let bestEnvelope = -2;
  // Negative lags too: the microphone may have been playing for a moment before capture began.
  for (let shift = -Math.floor(maxLagSamples / HOP); shift * HOP <= maxLagSamples; shift++) {
    const r = shift >= 0 ? pearson(a, b.slice(shift)) : pearson(a.slice(-shift), b);
    if (r > bestEnvelope) [bestEnvelope, coarse] = [r, shift * HOP];
  }
  let best = { lag: coarse, correlation: -1 };
  for (let lag = coarse - 2 * HOP; lag <= coarse + 2 * HOP; lag++) {
    const c = correlationAt(source, received, lag, window.fromSample + lag, window.length);
    if (c > best.correlation) best = { lag, correlation: c };
  }
  return best;
}

/** Pearson correlation of two equal-length series. */
export function pearson(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  const mean = (v: number[]) => v.slice(0, n).reduce((s, x) => s + x, 0) / n;
  const [ma, mb] = [mean(a), mean(b)];
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let k = 0; k < n; k++) {
    ab += (a[k]! - ma) * (b[k]! - mb);
    aa += (a[k]! - ma) ** 2;
    bb += (b[k]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
