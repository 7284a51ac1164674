/**
 * The sandbox's speech recognition after a session ends: energy segmentation decides the
 * utterances (and their offsets); pocketsphinx, when present, supplies the words inside them.
 */
import { availableParallelism } from 'node:os';
import { offsetFromMs, type TranscriptEntry } from '../../src/shared/service';
import { AUDIO_FORMAT } from '../limits';
import {
  defaultPocketsphinxConfig,
  runPocketsphinx,
  type PocketsphinxConfig,
  type RecognizedWord,
} from './pocketsphinx';
import { detectSpeech, type SpeechSegment } from './segmenter';
import type { AsrMode, Recognize } from './types';

export const UNRECOGNIZED = '[unrecognized speech]';

export interface RecognizerOptions {
  /** The pocketsphinx setup, or why there is none; found on this machine by default. */
  pocketsphinx?: PocketsphinxConfig | { missing: string };
  /** Decoder processes run side by side on one session (default: the CPU count, at most 4). */
  workers?: number;
  /**
   * Deadline per decoder process, in its own CPU time: this much, plus `timeoutPerAudioMs` per
   * millisecond of audio (and `wallClockFactor` times that by the clock; pocketsphinx.ts).
   */
  timeoutBaseMs?: number;
  timeoutPerAudioMs?: number;
  /** The wall-clock deadline, for a decoder that hangs without working: this many times the CPU one (5). */
  wallClockFactor?: number;
}

/** Audio kept either side of a chunk's speech, so the decoder hears each word's edges. */
const CHUNK_MARGIN_MS = 300;
/** Splitting into parallel chunks only pays off once there is this much speech per worker. */
const MIN_SPEECH_PER_WORKER_MS = 8_000;
/** A word this far from every utterance is a decoder hallucination in noise, not speech. */
const MAX_WORD_DISTANCE_MS = 300;

const bytesAt = (ms: number) => Math.round((ms * AUDIO_FORMAT.bytesPerSecond) / 1000 / 2) * 2;

/** Consecutive segments grouped into at most `workers` chunks of similar speech length. */
export function planChunks(segments: SpeechSegment[], workers: number): SpeechSegment[][] {
  const speech = segments.reduce((sum, s) => sum + s.endMs - s.startMs, 0);
  const count = Math.max(
    1,
    Math.min(workers, segments.length, Math.floor(speech / MIN_SPEECH_PER_WORKER_MS)),
  );
  const chunks: SpeechSegment[][] = [];
  let done = 0;
  for (const segment of segments) {
    const index = Math.min(count - 1, Math.floor((done / speech) * count));
    (chunks[index] ??= []).push(segment);
    done += segment.endMs - segment.startMs;
  }
  return chunks.filter((c) => c.length > 0);
}

/** Each word goes to the utterance it overlaps most, or the nearest one within MAX_WORD_DISTANCE_MS. */
export function assignWords(segments: SpeechSegment[], words: RecognizedWord[]): string[][] {
  const texts = segments.map((): string[] => []);
  for (const word of words) {
    let best = -1;
    let bestScore = -Infinity;
    segments.forEach((s, i) => {
      const overlap = Math.min(s.endMs, word.endMs) - Math.max(s.startMs, word.startMs);
      if (overlap > bestScore) [best, bestScore] = [i, overlap];
    });
    if (best >= 0 && bestScore > -MAX_WORD_DISTANCE_MS) texts[best]?.push(word.word);
  }
  return texts;
}

/** "blood pressure is high" → "Blood pressure is high." (cmudict words are lowercase; "i" is a word). */
export function toSentence(words: string[]): string {
  if (words.length === 0) return UNRECOGNIZED;
  const text = words.map((w) => (w === 'i' || w.startsWith("i'") ? `I${w.slice(1)}` : w)).join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function toEntries(segments: SpeechSegment[], texts: string[]): TranscriptEntry[] {
  // protocol: Ambient session (transcript offsets are from the start of the session's audio)
  return segments.map((s, i) => ({
    transcript_id: `t${i + 1}`,
    transcript: texts[i] ?? UNRECOGNIZED,
    start_offset: offsetFromMs(s.startMs),
    end_offset: offsetFromMs(s.endMs),
  }));
}

function chooseEngine(asr: AsrMode, setup: PocketsphinxConfig | { missing: string }) {
  if (asr === 'energy') return undefined;
  if ('missing' in setup) {
    if (asr === 'pocketsphinx') throw new Error(`--asr pocketsphinx cannot run: ${setup.missing}`);
    return undefined;
  }
  return setup;
}

async function decodeChunks(
  pcm: Buffer,
  chunks: SpeechSegment[][],
  config: PocketsphinxConfig,
  options: Required<Omit<RecognizerOptions, 'pocketsphinx' | 'workers'>> & { signal?: AbortSignal },
): Promise<RecognizedWord[][]> {
  const totalMs = (pcm.length / AUDIO_FORMAT.bytesPerSecond) * 1000;
  // One abort for all: the first chunk that fails stops its siblings instead of letting them run on.
  const stopAll = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stopAll.signal]) : stopAll.signal;
  const runs = chunks.map(async (chunk) => {
    const fromMs = Math.max(0, (chunk[0]?.startMs ?? 0) - CHUNK_MARGIN_MS);
    const toMs = Math.min(totalMs, (chunk.at(-1)?.endMs ?? 0) + CHUNK_MARGIN_MS);
    const timeoutMs = options.timeoutBaseMs + (toMs - fromMs) * options.timeoutPerAudioMs;
    const words = await runPocketsphinx(config, pcm.subarray(bytesAt(fromMs), bytesAt(toMs)), {
      timeoutMs,
      wallClockFactor: options.wallClockFactor,
      signal,
    });
    return words.map((w) => ({ ...w, startMs: w.startMs + fromMs, endMs: w.endMs + fromMs }));
  });
  try {
    return await Promise.all(runs);
  } catch (error) {
    stopAll.abort();
    await Promise.allSettled(runs);
    // The caller's abort is the reason, whichever chunk noticed it first.
    if (options.signal?.aborted) throw new Error('speech recognition was aborted', { cause: error });
    throw error;
  }
}

export function createRecognizer(options: RecognizerOptions = {}): Recognize {
  const workers = Math.max(1, options.workers ?? Math.min(4, availableParallelism()));
  const timeouts = {
    timeoutBaseMs: options.timeoutBaseMs ?? 30_000,
    timeoutPerAudioMs: options.timeoutPerAudioMs ?? 1,
    wallClockFactor: options.wallClockFactor ?? 5,
  };
  let setup = options.pocketsphinx;

  return async (pcm, { asr, signal }) => {
    if (signal?.aborted) throw new Error('speech recognition was aborted');
    setup ??= defaultPocketsphinxConfig();
    const config = chooseEngine(asr, setup);
    const segments = detectSpeech(pcm);
    const speechMs = segments.reduce((sum, s) => sum + s.endMs - s.startMs, 0);
    if (!config) return { entries: toEntries(segments, []), engine: 'energy', speechMs };
    if (segments.length === 0) return { entries: [], engine: 'pocketsphinx', speechMs };

    const chunks = planChunks(segments, workers);
    const words = await decodeChunks(pcm, chunks, config, { ...timeouts, signal });
    // Words are matched within their own chunk: a chunk's margins may overlap its neighbour's audio.
    const texts = chunks.flatMap((chunk, i) => assignWords(chunk, words[i] ?? [])).map(toSentence);
    return { entries: toEntries(segments, texts), engine: 'pocketsphinx', speechMs };
  };
}

/** asr 'auto' uses pocketsphinx when it is installed with its model, else energy segments only. */
export const recognize: Recognize = createRecognizer();
