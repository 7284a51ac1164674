/**
 * Which of the chunks the page sent reached the service. The service appends what it accepts in
 * order, and the recorder sends a subsequence of the captured chunks in order (a pause skips some;
 * the pre-roll sent on resume is the chunks just before the onset, still in order), so one walk
 * along both finds them: a chunk reached the service if its 3,200 bytes are the service's next
 * 3,200. 100 ms of 16-bit audio does not repeat by chance (the fixture's silence is room noise, not
 * digital zero). Service audio left over at the end of the walk matches no sent chunk in order: it
 * is reported, and would mean the walk (or the app) went wrong.
 */
import type { SentChunk } from '../../e2e/support/captured-audio';

export const CHUNK_BYTES = 3_200;

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
