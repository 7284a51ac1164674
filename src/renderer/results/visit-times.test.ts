import { describe, expect, it } from 'vitest';
import { offsetFromMs, type TranscriptEntry } from '../../shared/service';
import { formatOffset } from './format';
import { onVisitClock } from './visit-times';

const entry = (id: string, startMs: number, endMs: number): TranscriptEntry => ({
  transcript_id: id,
  transcript: id,
  start_offset: offsetFromMs(startMs),
  end_offset: offsetFromMs(endMs),
});

describe('transcript times on the visit clock', () => {
  it('puts speech after an auto-pause at the time the recording screen showed', () => {
    // 0–30 s sent as recorded; then 7 s of silence held back: sent 30 s is visit 37 s.
    const clock = [
      { sentStartMs: 0, visitStartMs: 0 },
      { sentStartMs: 30_000, visitStartMs: 37_000 },
    ];
    const mapped = onVisitClock([entry('a', 4_000, 9_000), entry('b', 33_000, 36_000)], clock);
    expect(mapped.map((e) => formatOffset(e.start_offset))).toEqual(['0:04', '0:40']);
    expect(formatOffset(mapped[1]!.end_offset)).toBe('0:43');
    // An entry ending exactly where the gap starts ends there, not after the gap.
    expect(formatOffset(onVisitClock([entry('c', 25_000, 30_000)], clock)[0]!.end_offset)).toBe('0:30');
  });

  it('shows the service’s own times when main kept no clock for the visit', () => {
    const entries = [entry('a', 33_000, 36_000)];
    expect(onVisitClock(entries, undefined)).toEqual(entries);
    expect(onVisitClock(entries, [])).toEqual(entries);
  });
});
