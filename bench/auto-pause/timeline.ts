/**
 * Which sent chunks reached the service (one walk along both: the service appends in order and the
 * recorder sends a subsequence of the captured chunks in order), where each lies on the fixture's
 * clock (the captured PCM lined up with the WAV by cross-correlation: chunk k holds the file's
 * samples [1600k − lag, 1600(k + 1) − lag)), and the speech in those that never arrived.
 */
import type { SentChunk } from '../../e2e/support/captured-audio';
import { alignSource, type Conversation } from '../../e2e/support/audio-analysis';

const SAMPLES_PER_CHUNK = 1_600;
const SAMPLES_PER_MS = 16;

export type Delivery = ReturnType<typeof matchChunks>;

/** reached[k]: the k-th sent chunk is in the service's audio; and the service's bytes no sent chunk accounts for. */
export function matchChunks(sent: SentChunk[], servicePcm: Buffer) {
  const reached: boolean[] = [];
  let at = 0;
  for (const chunk of sent) {
    // Its own length: a capture's final chunk (End) may be shorter than 3,200 bytes.
    const n = chunk.pcm.length;
    const here = at + n <= servicePcm.length && servicePcm.compare(chunk.pcm, 0, n, at, at + n) === 0;
    reached.push(here);
    if (here) at += n;
  }
  return { reached, unmatchedServiceBytes: servicePcm.length - at };
}

export type Alignment = ReturnType<typeof alignCapture>;

/** received[k] ≈ file[k − lag] (samples), found on the first turn and again on the first after the long silence. */
export function alignCapture(conversation: Conversation, sent: SentChunk[]) {
  const pcm = Buffer.concat(sent.map((chunk) => chunk.pcm));
  const received = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2);
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
