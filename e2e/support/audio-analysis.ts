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

/**
 * The lag (received[k] ≈ source[k − lag]) that lines up the received stretch
 * [fromReceived, fromReceived + length) with the source, searched over [lagFrom, lagTo]: every 8th
 * lag first, then each lag around the best. For a stretch whose lag differs from the whole
 * recording's (gaps the capture filled with zeros before it).
 */
export function alignStretch(
  source: Int16Array,
  received: Int16Array,
  fromReceived: number,
  length: number,
  lagFrom: number,
  lagTo: number,
): { lag: number; correlation: number } {
  let best = { lag: lagFrom, correlation: -1 };
  for (let lag = lagFrom; lag <= lagTo; lag += 8) {
    const c = correlationAt(source, received, lag, fromReceived, length);
    if (c > best.correlation) best = { lag, correlation: c };
  }
  const coarse = best.lag;
  for (let lag = coarse - 8; lag <= coarse + 8; lag++) {
    const c = correlationAt(source, received, lag, fromReceived, length);
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

/** One turn of a source as found in the received audio. */
export interface FoundTurn {
  startMs: number;
  /** received[k] ≈ source[k − lag] over the turn, in samples. */
  lag: number;
  /** The waveform correlation over the whole turn at that lag (1: the same sound). */
  wholeCorrelation: number;
  /**
   * The median, over the turn's half-second pieces, of each piece's best waveform correlation
   * within 30 ms of the turn's lag: near 1 for a turn that arrived, even one that a capture
   * shifted by a few ms part-way (which lowers the whole turn's); near 0 for one that did not.
   */
  correlation: number;
  /** The turn's level at the service against its level in the source, dB. */
  gainDb: number;
}

/**
 * Each turn of `source` in `received` (both 16 kHz), in order: where it lines up best and how well.
 * Each turn is looked for from where the one before it was found (the first from `nearLag`, from
 * alignSource), `earlierMs` before to `laterMs` after: a source whose audio was delayed part-way
 * (a capture that inserted silence) is followed; one that lost audio would be found earlier than
 * its last turn. Coarse on 10 ms energy envelopes, then sample by sample. A turn present at the
 * service correlates near 1 (its own speaker's sound, the other source silent); a turn that never
 * arrived, near 0.
 */
export function findTurns(
  source: Int16Array,
  received: Int16Array,
  turns: readonly { startMs: number; endMs: number }[],
  nearLag: number,
  { earlierMs = 30, laterMs = 250 }: { earlierMs?: number; laterMs?: number } = {},
): FoundTurn[] {
  const HOP = 160;
  const a = envelope(source, HOP);
  const b = envelope(received, HOP);
  let around = nearLag;
  return turns.map((turn) => {
    const from = Math.round((turn.startMs / 1_000) * 16_000);
    const length = Math.round(((turn.endMs - turn.startMs) / 1_000) * 16_000);
    // Coarse: the envelope shift within the range that best matches the turn's envelope.
    const first = Math.floor(from / HOP);
    const hops = Math.floor(length / HOP);
    let coarse = around;
    let bestEnvelope = -2;
    const lowest = Math.floor((around - (earlierMs / 1_000) * 16_000) / HOP);
    const highest = Math.ceil((around + (laterMs / 1_000) * 16_000) / HOP);
    for (let shift = lowest; shift <= highest; shift++) {
      if (first + shift < 0 || first + shift + hops > b.length) continue;
      const r = pearson(a.slice(first, first + hops), b.slice(first + shift, first + shift + hops));
      if (r > bestEnvelope) [bestEnvelope, coarse] = [r, shift * HOP];
    }
    // Fine: sample by sample, two hops either side of the coarse lag.
    let best = { lag: coarse, correlation: -1 };
    for (let lag = coarse - 2 * HOP; lag <= coarse + 2 * HOP; lag++) {
      const c = correlationAt(source, received, lag, from + lag, length);
      if (c > best.correlation) best = { lag, correlation: c };
    }
    const pieces = piecesCorrelation(source, received, from, length, best.lag);
    // A turn not found (its source had ended) says nothing of where the next one is.
    if (pieces > 0.5) around = best.lag;
    let sourceEnergy = 0;
    let receivedEnergy = 0;
    for (let k = from; k < from + length; k++) {
      sourceEnergy += (source[k] ?? 0) ** 2;
      receivedEnergy += (received[k + best.lag] ?? 0) ** 2;
    }
    const gainDb = 10 * Math.log10(Math.max(1e-12, receivedEnergy) / Math.max(1e-12, sourceEnergy));
    return {
      startMs: turn.startMs,
      lag: best.lag,
      wholeCorrelation: best.correlation,
      correlation: pieces,
      gainDb,
    };
  });
}

/** The median over half-second pieces of source[from, from + length) of each one's best correlation near `lag`. */
function piecesCorrelation(
  source: Int16Array,
  received: Int16Array,
  from: number,
  length: number,
  lag: number,
): number {
  const PIECE = 8_000;
  const SEARCH = 480;
  const found: number[] = [];
  for (let start = from; start + PIECE <= from + length; start += PIECE) {
    let best = -1;
    for (let l = lag - SEARCH; l <= lag + SEARCH; l++)
      best = Math.max(best, correlationAt(source, received, l, start + l, PIECE));
    found.push(best);
  }
  return found.length > 0 ? median(found) : correlationAt(source, received, lag, from + lag, length);
}

/** Int16 samples of LINEAR16 bytes (little-endian, as the chunks carry them). */
export function samplesOf(pcm: Buffer): Int16Array {
  return new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
}

/** A stretch of the source (ms), where its direct copy and its echo sit in the received audio. */
export interface EchoWindow {
  startMs: number;
  endMs: number;
  directLag: number;
  echoLag: number;
}

/**
 * How loud a second, later copy of `source` (an echo) is in `received`, against the first copy,
 * over `windows` of the source (ms), each with where its two copies sit (received[k] ≈
 * source[k − lag]): both gains fitted together by least squares, in dB of the echo's gain under
 * the direct copy's. An echo the browser removed fits at far below -30 dB.
 */
export function echoUnderDirectDb(
  source: Int16Array,
  received: Int16Array,
  windows: readonly EchoWindow[],
): number {
  let dd = 0;
  let ee = 0;
  let de = 0;
  let dr = 0;
  let er = 0;
  for (const { startMs, endMs, directLag, echoLag } of windows) {
    // The window in received time, wide enough for both copies.
    const from = Math.round((startMs / 1_000) * 16_000) + Math.min(directLag, echoLag);
    const to = Math.round((endMs / 1_000) * 16_000) + Math.max(directLag, echoLag);
    for (let k = Math.max(0, from); k < Math.min(received.length, to); k++) {
      const d = source[k - directLag] ?? 0;
      const e = source[k - echoLag] ?? 0;
      const r = received[k]!;
      dd += d * d;
      ee += e * e;
      de += d * e;
      dr += d * r;
      er += e * r;
    }
  }
  // [dd de; de ee] [gd; ge] = [dr; er]
  const det = dd * ee - de * de;
  const direct = (dr * ee - er * de) / det;
  const echo = (er * dd - dr * de) / det;
  return 20 * Math.log10(Math.max(1e-9, Math.abs(echo)) / Math.max(1e-9, Math.abs(direct)));
}
