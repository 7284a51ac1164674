import { offsetFromMs, type TranscriptEntry } from '../../shared/service';
import { toVisitMs, type VisitClockSegment } from '../../shared/visit-clock';

type Offset = TranscriptEntry['start_offset'];

const toMs = (offset: Offset) =>
  offset.hours * 3_600_000 + offset.minutes * 60_000 + offset.seconds * 1_000 + offset.nanos / 1_000_000;

/**
 * The transcript with its times on the visit's own clock (issue 17): the service counts only the
 * audio it received, so speech at 0:40 of the visit, after an auto-pause, would read 0:33. Main
 * hands over where the sent audio sits on the visit clock; every time the screen shows (the
 * transcript, a form field's evidence) then reads as the recording's clock did. Without a clock
 * (a visit recorded before the app kept one) the service's times are shown as they are.
 */
export function onVisitClock(
  transcript: readonly TranscriptEntry[],
  clock: readonly VisitClockSegment[] | undefined,
): TranscriptEntry[] {
  if (!clock?.length) return [...transcript];
  return transcript.map((entry) => ({
    ...entry,
    start_offset: offsetFromMs(Math.round(toVisitMs(toMs(entry.start_offset), clock, 'start'))),
    end_offset: offsetFromMs(Math.round(toVisitMs(toMs(entry.end_offset), clock, 'end'))),
  }));
}
