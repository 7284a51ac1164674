import { z } from 'zod';

/**
 * The service's transcript offsets count only the audio it received; the app does not send all it
 * records (auto-pauses hold back silence, then send a pre-roll from just before the speech). The
 * visit clock maps a position in the sent audio back to the visit's own time (the recording
 * screen's `elapsedMs`), so the clinician reads transcript times on the clock they saw.
 *
 * It is a list of stretches, one per run of audio sent without a gap on the visit clock: audio at
 * sent position `s` in stretch i (sentStartMs_i ≤ s < sentStartMs_i+1) was captured at
 * `visitStartMs_i + (s - sentStartMs_i)`. A visit has a few (one more per auto-pause that dropped
 * audio), so a plain array searched from the start is enough.
 */
export const visitClockSegmentSchema = z.object({
  /** Where the stretch begins in the audio the service received, ms (its transcript offsets). */
  sentStartMs: z.number().int().nonnegative(),
  /** When the stretch's first audio was captured, ms on the visit clock. */
  visitStartMs: z.number().int().nonnegative(),
});
export type VisitClockSegment = z.infer<typeof visitClockSegmentSchema>;

export const visitClockSchema = z
  .array(visitClockSegmentSchema)
  .refine(
    (clock) =>
      clock.every((segment, i) =>
        i === 0 ? segment.sentStartMs === 0 : segment.sentStartMs > (clock[i - 1]?.sentStartMs ?? 0),
      ),
    { message: 'must start at 0 and go forward in the sent audio' },
  );
export type VisitClock = z.infer<typeof visitClockSchema>;

/**
 * The visit time of the audio at `sentMs` in the sent audio; without a clock (an older spool, a
 * rebuilt manifest) the sent position itself. `edge: 'end'` is for the end of a stretch of speech
 * (a transcript entry's end_offset): a position exactly at the start of a stretch then belongs to
 * the stretch before it, so the entry does not seem to last through the gap that follows it.
 */
export function toVisitMs(
  sentMs: number,
  clock: readonly VisitClockSegment[],
  edge: 'start' | 'end' = 'start',
): number {
  let segment = clock[0];
  if (!segment) return sentMs;
  for (const next of clock) {
    const reached = edge === 'start' ? next.sentStartMs <= sentMs : next.sentStartMs < sentMs;
    if (!reached) break;
    segment = next;
  }
  return segment.visitStartMs + (sentMs - segment.sentStartMs);
}

/**
 * Builds a visit's clock as its audio is sent, chunk by chunk: a chunk captured right where the
 * audio sent before it ends continues the stretch; any other starts a new one.
 */
export class VisitClockBuilder {
  private readonly stretches: VisitClockSegment[] = [];
  /** Audio sent so far, ms: the sent position of the next chunk. */
  private sentMs = 0;
  /** Where the audio sent last ends on the visit clock: a chunk captured there continues it. */
  private visitEndMs = 0;

  /**
   * A chunk that goes to the service: captured at `visitAtMs` on the visit clock, `durationMs`
   * long. Returns whether it starts a new stretch (the clock changed).
   */
  appendSent(chunk: { visitAtMs: number; durationMs: number }): boolean {
    if (chunk.durationMs <= 0) return false;
    const starts = this.stretches.length === 0 || chunk.visitAtMs !== this.visitEndMs;
    // Rounded when kept: only a capture's shorter final chunk has a fraction of a millisecond, and
    // the contiguity test above uses the exact sums (multiples of 1/32 ms, exact in a double).
    if (starts) {
      this.stretches.push({
        sentStartMs: Math.round(this.sentMs),
        visitStartMs: Math.round(chunk.visitAtMs),
      });
    }
    this.sentMs += chunk.durationMs;
    this.visitEndMs = chunk.visitAtMs + chunk.durationMs;
    return starts;
  }

  /** The clock so far (a copy: the builder goes on). */
  get clock(): VisitClock {
    return this.stretches.map((segment) => ({ ...segment }));
  }
}
