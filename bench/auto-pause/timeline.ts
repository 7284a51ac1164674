/**
 * Which of the chunks the page sent reached the service, their place on the fixture's clock, and
 * the speech in those that never reached it.
 *
 * The service appends what it accepts in order, and the recorder sends a subsequence of the
 * captured chunks in order (a pause skips some; the pre-roll sent on resume is the chunks just
 * before the onset, still in order), so one walk along both finds them: a chunk reached the service
 * if its 3,200 bytes are the service's next 3,200. 100 ms of 16-bit audio does not repeat by chance
 * (the fixture's silence is room noise, not digital zero). Service audio left over at the end of the
 * walk matches no sent chunk in order: it is reported, and would mean the walk (or the app) went wrong.
 *
 * The fake microphone starts the file when the capture stream opens, and the capture may miss its
 * first moments, so chunk k's place in the file is found from the audio itself: the captured PCM is
 * lined up with the WAV by cross-correlation (e2e/support/audio-analysis.ts alignSource: 10 ms
 * energy envelopes over the whole recording, then sample by sample on 2 s of the first turn), and
 * checked again on the first turn after the long silence. Chunk k then holds the file's samples
 * [1600k − lag, 1600(k + 1) − lag).
 */
import type { SentChunk } from '../../e2e/support/captured-audio';
import { alignSource, type Conversation } from '../../e2e/support/audio-analysis';

const SAMPLES_PER_CHUNK = 1_600;
const SAMPLES_PER_MS = 16;
const CHUNK_BYTES = 3_200;

export interface Delivery {
  /** reached[k]: the k-th sent chunk is in the service's audio. */
  reached: boolean[];
  /** Bytes of the service's audio that no sent chunk accounts for (0 when everything lines up). */
  unmatchedServiceBytes: number;
}

export function matchChunks(sent: SentChunk[], servicePcm: Buffer): Delivery {
  const reached: boolean[] = [];
  let at = 0;
  for (const chunk of sent) {
    const here =
      at + CHUNK_BYTES <= servicePcm.length &&
      servicePcm.compare(chunk.pcm, 0, CHUNK_BYTES, at, at + CHUNK_BYTES) === 0;
    reached.push(here);
    if (here) at += CHUNK_BYTES;
  }
  return { reached, unmatchedServiceBytes: servicePcm.length - at };
}

export interface Alignment {
  /** received[k] ≈ file[k − lag], samples. */
  lag: number;
  correlation: number;
  /** The same, found on the first turn after the long silence. */
  lateLag: number;
  lateCorrelation: number;
}

export function alignCapture(conversation: Conversation, sent: SentChunk[]): Alignment {
  const received = new Int16Array(sent.length * SAMPLES_PER_CHUNK);
  sent.forEach((chunk, k) =>
    received.set(
      new Int16Array(chunk.pcm.buffer, chunk.pcm.byteOffset, SAMPLES_PER_CHUNK),
      k * SAMPLES_PER_CHUNK,
    ),
  );
  const at = (ms: number) => ({ fromSample: ms * SAMPLES_PER_MS, length: 2_000 * SAMPLES_PER_MS });
  const first = conversation.turns[0]!;
  const afterSilence =
    conversation.turns.find((t) => t.startMs >= conversation.longSilence.endMs) ?? conversation.turns.at(-1)!;
  const early = alignSource(conversation.samples, received, at(first.startMs), 3 * 16_000);
  const late = alignSource(conversation.samples, received, at(afterSilence.startMs), 3 * 16_000);
  return {
    lag: early.lag,
    correlation: early.correlation,
    lateLag: late.lag,
    lateCorrelation: late.correlation,
  };
}

/** A run of consecutive sent chunks that did not reach the service. */
export interface Gap {
  /** The run's place in the fixture, ms. */
  fromMs: number;
  toMs: number;
  chunks: number;
  /** Of it, ms inside the fixture's turns: speech the service never got. */
  speechMs: number;
  /** No chunk after it reached the service: captured after End, never meant to be sent. */
  afterEnd: boolean;
  /** The turn before the run ended this long before it began, ms (the auto-pause delay, and the VAD's). */
  afterLastWordMs: number | undefined;
  /** The next turn starts this long after the run ends, ms: audio before the onset that did reach the service. */
  beforeNextTurnMs: number | undefined;
}

export function gaps(reached: boolean[], lag: number, conversation: Conversation): Gap[] {
  const fileMs = (chunk: number) => (chunk * SAMPLES_PER_CHUNK - lag) / SAMPLES_PER_MS;
  const lastReached = reached.lastIndexOf(true);
  const found: Gap[] = [];
  for (let k = 0; k < reached.length; k++) {
    if (reached[k]) continue;
    let end = k;
    while (end + 1 < reached.length && !reached[end + 1]) end++;
    const fromMs = fileMs(k);
    const toMs = fileMs(end + 1);
    // Negative when the run cuts into the turn.
    const previous = conversation.turns.filter((t) => t.startMs < fromMs).at(-1);
    const next = conversation.turns.find((t) => t.endMs > toMs);
    found.push({
      fromMs,
      toMs,
      chunks: end - k + 1,
      speechMs: conversation.turns.reduce(
        (sum, t) => sum + Math.max(0, Math.min(t.endMs, toMs) - Math.max(t.startMs, fromMs)),
        0,
      ),
      afterEnd: k > lastReached,
      afterLastWordMs: previous ? fromMs - previous.endMs : undefined,
      beforeNextTurnMs: next ? next.startMs - toMs : undefined,
    });
    k = end;
  }
  return found;
}
