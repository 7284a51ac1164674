/**
 * Energy-based utterance detection over a whole session's audio (LINEAR16 LE, 16 kHz, mono).
 *
 * Each 10 ms frame's energy is compared with an adaptive noise floor: the quietest 100 ms block
 * within a few seconds either side. Speech always has pauses and stop closures that drop towards the
 * room's noise, so that minimum follows the noise as it changes (a fan turning on, a quieter room)
 * without ever climbing onto the speech itself. A hangover keeps the gaps between words inside one
 * utterance; a minimum length drops clicks and bumps.
 */
import { AUDIO_FORMAT } from '../limits';

export interface SpeechSegment {
  startMs: number;
  endMs: number;
}

export interface SegmenterOptions {
  /** Silence shorter than this stays inside the utterance (gaps between words and phrases). */
  hangoverMs: number;
  /** Shorter detections are noise (a cough is fine, a click is not). */
  minUtteranceMs: number;
  /** A frame is speech when it is this much louder than the noise floor... */
  marginDb: number;
  /** ...and louder than this absolute level, so near-digital silence never counts as speech. */
  minLevelDbfs: number;
  /** Kept before the first and after the last speech frame, so soft onsets and endings stay in. */
  paddingMs: number;
}

export const DEFAULT_SEGMENTER_OPTIONS: SegmenterOptions = {
  // Below the ~500–700 ms pauses between conversational turns, above most pauses inside a sentence.
  hangoverMs: 400,
  minUtteranceMs: 250,
  marginDb: 10,
  minLevelDbfs: -55,
  paddingMs: 40,
};

const FRAME_MS = 10;
const SAMPLES_PER_FRAME = (AUDIO_FORMAT.sampleRate * FRAME_MS) / 1000;
const BLOCK_FRAMES = 10; // 100 ms blocks for the noise floor
/** How far either side of a frame the noise floor looks (in 100 ms blocks). */
const FLOOR_WINDOW_BLOCKS = 40;
const FULL_SCALE_POWER = 32768 * 32768;
const SILENCE_DB = -120;

/** Mean power of each 10 ms frame, relative to full scale. A trailing partial frame is dropped. */
export function framePowers(pcm: Buffer): Float64Array {
  const frames = Math.floor(pcm.length / (SAMPLES_PER_FRAME * AUDIO_FORMAT.bytesPerSample));
  const powers = new Float64Array(frames);
  for (let f = 0; f < frames; f += 1) {
    const base = f * SAMPLES_PER_FRAME * AUDIO_FORMAT.bytesPerSample;
    let sum = 0;
    for (let s = 0; s < SAMPLES_PER_FRAME; s += 1) {
      const v = pcm.readInt16LE(base + s * AUDIO_FORMAT.bytesPerSample);
      sum += v * v;
    }
    powers[f] = sum / SAMPLES_PER_FRAME / FULL_SCALE_POWER;
  }
  return powers;
}

const toDb = (power: number) => (power > 0 ? Math.max(SILENCE_DB, 10 * Math.log10(power)) : SILENCE_DB);

/** Noise floor per frame: the minimum 100 ms block level within ±FLOOR_WINDOW_BLOCKS. */
function noiseFloor(powers: Float64Array): Float64Array {
  const blocks = Math.ceil(powers.length / BLOCK_FRAMES);
  const blockDb = new Float64Array(blocks);
  for (let b = 0; b < blocks; b += 1) {
    const from = b * BLOCK_FRAMES;
    const to = Math.min(powers.length, from + BLOCK_FRAMES);
    let sum = 0;
    for (let f = from; f < to; f += 1) sum += powers[f] ?? 0;
    blockDb[b] = toDb(sum / (to - from));
  }
  // Sliding minimum with a monotonic deque: linear in the session's length.
  const floorOfBlock = new Float64Array(blocks);
  const deque: number[] = [];
  let head = 0;
  let next = 0;
  for (let b = 0; b < blocks; b += 1) {
    for (; next < blocks && next <= b + FLOOR_WINDOW_BLOCKS; next += 1) {
      while (deque.length > head && (blockDb[deque[deque.length - 1] ?? 0] ?? 0) >= (blockDb[next] ?? 0)) {
        deque.pop();
      }
      deque.push(next);
    }
    while ((deque[head] ?? 0) < b - FLOOR_WINDOW_BLOCKS) head += 1;
    floorOfBlock[b] = blockDb[deque[head] ?? 0] ?? SILENCE_DB;
  }
  const floor = new Float64Array(powers.length);
  for (let f = 0; f < powers.length; f += 1)
    floor[f] = floorOfBlock[Math.floor(f / BLOCK_FRAMES)] ?? SILENCE_DB;
  return floor;
}

/** Utterances in order, in milliseconds from the start of `pcm`. */
export function detectSpeech(pcm: Buffer, options: Partial<SegmenterOptions> = {}): SpeechSegment[] {
  const o = { ...DEFAULT_SEGMENTER_OPTIONS, ...options };
  const powers = framePowers(pcm);
  const floor = noiseFloor(powers);
  const hangoverFrames = Math.round(o.hangoverMs / FRAME_MS);
  const totalMs = powers.length * FRAME_MS;

  const raw: { start: number; end: number }[] = [];
  let start = -1;
  let lastActive = -1;
  for (let f = 0; f <= powers.length; f += 1) {
    const db = f < powers.length ? toDb(powers[f] ?? 0) : SILENCE_DB;
    const active = f < powers.length && db > Math.max((floor[f] ?? SILENCE_DB) + o.marginDb, o.minLevelDbfs);
    if (active) {
      if (start < 0) start = f;
      lastActive = f;
    } else if (start >= 0 && (f - lastActive > hangoverFrames || f === powers.length)) {
      raw.push({ start, end: lastActive + 1 });
      start = -1;
    }
  }

  const segments: SpeechSegment[] = [];
  for (const { start: s, end: e } of raw) {
    if ((e - s) * FRAME_MS < o.minUtteranceMs) continue;
    const previousEnd = segments.at(-1)?.endMs ?? 0;
    segments.push({
      startMs: Math.max(previousEnd, s * FRAME_MS - o.paddingMs, 0),
      endMs: Math.min(totalMs, e * FRAME_MS + o.paddingMs),
    });
  }
  return segments;
}
