import { describe, expect, it } from 'vitest';
import { toVisitMs, VisitClockBuilder, visitClockSchema } from './visit-clock';

/** Chunks of 100 ms captured at these visit times, sent in this order. */
function built(visitTimes: number[]) {
  const builder = new VisitClockBuilder();
  const starts = visitTimes.map((visitAtMs) => builder.appendSent({ visitAtMs, durationMs: 100 }));
  return { clock: builder.clock, starts };
}

describe('the visit clock', () => {
  it('is one stretch while the audio is sent without a gap', () => {
    const { clock, starts } = built([0, 100, 200, 300]);
    expect(clock).toEqual([{ sentStartMs: 0, visitStartMs: 0 }]);
    expect(starts).toEqual([true, false, false, false]);
    expect(toVisitMs(250, clock)).toBe(250);
  });

  it('starts a stretch where audio was held back, and maps each side of the gap to its own time', () => {
    // 0–300 sent, 300–1,000 held back by an auto-pause, then 1,000–1,300 (pre-roll and speech).
    const { clock, starts } = built([0, 100, 200, 1_000, 1_100, 1_200]);
    expect(starts).toEqual([true, false, false, true, false, false]);
    expect(clock).toEqual([
      { sentStartMs: 0, visitStartMs: 0 },
      { sentStartMs: 300, visitStartMs: 1_000 },
    ]);
    expect(toVisitMs(299, clock)).toBe(299);
    expect(toVisitMs(300, clock)).toBe(1_000);
    expect(toVisitMs(450, clock)).toBe(1_150);
    // An end at the gap is the end of what came before it, not the start of what follows.
    expect(toVisitMs(300, clock, 'end')).toBe(300);
    expect(toVisitMs(450, clock, 'end')).toBe(1_150);
  });

  it('without a clock, a sent position is taken as it is', () => {
    expect(toVisitMs(1_234, [])).toBe(1_234);
  });

  it('may start late on the visit clock (audio held back before anything was sent)', () => {
    const { clock } = built([500, 600]);
    expect(clock).toEqual([{ sentStartMs: 0, visitStartMs: 500 }]);
    expect(toVisitMs(150, clock)).toBe(650);
  });

  it('keeps whole milliseconds when a short final chunk leaves a fraction', () => {
    const builder = new VisitClockBuilder();
    builder.appendSent({ visitAtMs: 0, durationMs: 20.5 });
    builder.appendSent({ visitAtMs: 20.5, durationMs: 100 });
    builder.appendSent({ visitAtMs: 500.5, durationMs: 100 });
    expect(builder.clock).toEqual([
      { sentStartMs: 0, visitStartMs: 0 },
      { sentStartMs: 121, visitStartMs: 501 },
    ]);
    expect(visitClockSchema.safeParse(builder.clock).success).toBe(true);
  });

  it('the schema takes only a clock that starts at 0 and goes forward', () => {
    expect(visitClockSchema.safeParse([]).success).toBe(true);
    expect(visitClockSchema.safeParse(built([0, 400]).clock).success).toBe(true);
    expect(visitClockSchema.safeParse([{ sentStartMs: 100, visitStartMs: 0 }]).success).toBe(false);
    expect(
      visitClockSchema.safeParse([
        { sentStartMs: 0, visitStartMs: 0 },
        { sentStartMs: 0, visitStartMs: 500 },
      ]).success,
    ).toBe(false);
    expect(visitClockSchema.safeParse([{ sentStartMs: 0, visitStartMs: 1.5 }]).success).toBe(false);
  });
});
