/**
 * Audio the capture path lost. On a busy machine, or as a stream starts, Chromium can lose audio
 * between the fake device and the worklet: either the timing jumps (a slip), or the lost audio
 * comes out as zeros in place (a dropout). Either would count as resampler error, so each is
 * found, reported, and left out of the quality figures.
 */
import { integerLag } from './fft';
import { OUTPUT_RATE } from './signals';

/** Where the capture's timing jumped against the file (audio dropped or inserted). */
export interface Slip {
  /** Seconds into the file. */
  atSeconds: number;
  /** How far the lag moved, in 16 kHz samples (positive: samples inserted). */
  samples: number;
}

/** Where the capture came out as zeros although the file has sound there. */
export interface Dropout {
  /** Seconds into the file. */
  atSeconds: number;
  ms: number;
}

/** The furthest a slip is looked for, either way (50 ms). */
const MAX_SLIP = 800;
/** Exact zeros for this long (2 ms) where the file has sound: audio the capture path lost. */
const MIN_DROPOUT = 32;
/** "Has sound": RMS above −60 dBFS (a silent 16-bit capture is exact zeros; speech never is). */
const SOUND_RMS = 1e-3;

/**
 * The longest stretch of the file that the capture reproduces without a slip or a dropout, and
 * every slip and dropout found. Each second of the file is located in the capture on its own
 * (quiet seconds take their neighbour's lag); a second in which the lag changes is cut out
 * together with the one before it, and so is every dropout.
 */
export function cleanStretch(
  reference: Float32Array,
  capture: Float32Array,
): { from: number; to: number; lag: number; slips: Slip[]; dropouts: Dropout[] } {
  const lag = integerLag(reference, capture);
  const blocks = blockLags(reference, capture, lag);
  const slips: Slip[] = [];
  const dropouts: Dropout[] = [];
  // Stretches with one lag, in reference samples; cuts split them further.
  const pieces: { from: number; to: number; lag: number }[] = [];
  blocks.forEach((block, k) => {
    const previous = blocks[k - 1];
    const piece = pieces.at(-1);
    if (previous && piece && previous.lag !== block.lag) {
      slips.push({ atSeconds: block.from / OUTPUT_RATE, samples: block.lag - previous.lag });
      piece.to = previous.from; // the slip is in this block or the one before: neither is kept
      pieces.push({ from: block.to, to: block.to, lag: block.lag });
    } else if (piece && piece.to === block.from) {
      piece.to = block.to;
    } else {
      pieces.push({ ...block });
    }
  });
  const kept: typeof pieces = [];
  for (const piece of pieces) {
    let from = piece.from;
    for (const dropout of findDropouts(reference, capture, piece)) {
      dropouts.push({
        atSeconds: dropout.from / OUTPUT_RATE,
        ms: ((dropout.to - dropout.from) / OUTPUT_RATE) * 1000,
      });
      kept.push({ from, to: dropout.from, lag: piece.lag });
      from = dropout.to;
    }
    kept.push({ from, to: piece.to, lag: piece.lag });
  }
  const longest = kept.reduce((a, b) => (b.to - b.from > a.to - a.from ? b : a), { from: 0, to: 0, lag });
  return { ...longest, slips, dropouts };
}

/**
 * The capture's lag for each second of the file (the first and last reach the ends of the
 * overlap). Seconds too quiet to tell take the lag of the one before (or after, at the start).
 */
function blockLags(
  reference: Float32Array,
  capture: Float32Array,
  lag: number,
): { from: number; to: number; lag: number }[] {
  const first = Math.max(0, -lag, MAX_SLIP - lag);
  const last = Math.min(reference.length, capture.length - lag - MAX_SLIP);
  const found: { from: number; to: number; lag: number | undefined }[] = [];
  for (let from = first; from + OUTPUT_RATE <= last; from += OUTPUT_RATE) {
    const block = reference.subarray(from, from + OUTPUT_RATE);
    if (rms(block) < SOUND_RMS) {
      found.push({ from, to: from + OUTPUT_RATE, lag: undefined });
      continue;
    }
    const start = from + lag - MAX_SLIP;
    const window = capture.subarray(start, from + lag + OUTPUT_RATE + MAX_SLIP);
    found.push({ from, to: from + OUTPUT_RATE, lag: start + integerLag(block, window) - from });
  }
  if (found.length === 0) return [];
  let known = found.find((b) => b.lag !== undefined)?.lag ?? lag;
  const blocks = found.map((b) => ({ ...b, lag: (known = b.lag ?? known) }));
  const [head, tail] = [blocks[0]!, blocks.at(-1)!];
  head.from = Math.max(0, -head.lag);
  tail.to = Math.min(reference.length, capture.length - tail.lag);
  return blocks;
}

/** Runs of exact zeros in the capture, at least MIN_DROPOUT long, where the file has sound. */
function findDropouts(
  reference: Float32Array,
  capture: Float32Array,
  piece: { from: number; to: number; lag: number },
): { from: number; to: number }[] {
  const out: { from: number; to: number }[] = [];
  let zeros = 0;
  for (let n = piece.from; n <= piece.to; n++) {
    if (n < piece.to && capture[n + piece.lag] === 0) {
      zeros++;
      continue;
    }
    if (zeros >= MIN_DROPOUT && rms(reference.subarray(n - zeros, n)) > SOUND_RMS) {
      out.push({ from: n - zeros, to: n });
    }
    zeros = 0;
  }
  return out;
}

function rms(signal: Float32Array): number {
  let sum = 0;
  for (const v of signal) sum += v * v;
  return Math.sqrt(sum / signal.length);
}
