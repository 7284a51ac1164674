import { describe, expect, it } from 'vitest';
import { CaptureClock } from './capture-clock';

describe('CaptureClock', () => {
  it('says nothing in the first second: chunks that all waited on a busy page must not set End', () => {
    const clock = new CaptureClock();
    expect(clock.framesAt(5_000, 16_000)).toBeUndefined();
    // Nine chunks queued while the page was busy, all 800 ms late.
    for (let k = 1; k <= 9; k++) clock.chunkArrived(k * 100 + 800, k * 0.1);
    expect(clock.framesAt(1_800, 16_000)).toBeUndefined();
    // The tenth arrives on time: from now on the least delay is its.
    clock.chunkArrived(1_002, 1.0);
    expect(clock.framesAt(1_100, 16_000)).toBe(1_098 * 16);
  });

  it('counts from the promptest chunk: the capture latency is the least delay seen', () => {
    const clock = new CaptureClock();
    for (let k = 1; k <= 7; k++) clock.chunkArrived(k * 100 + 50, k * 0.1);
    // Chunks of 100 ms reach the page 30, 12 and 70 ms after their last sample.
    clock.chunkArrived(1_030, 1.0);
    clock.chunkArrived(1_112, 1.1);
    clock.chunkArrived(1_270, 1.2);
    // At 1,400 ms of the page's clock, 1,388 ms of input had been captured (12 ms latency).
    expect(clock.framesAt(1_400, 16_000)).toBe(1_388 * 16);
    expect(clock.framesAt(1_400, 48_000)).toBe(1_388 * 48);
  });

  it('forgets chunks older than the last fifty, so a drifting device clock does not pull it off', () => {
    const clock = new CaptureClock();
    clock.chunkArrived(100, 0.1); // 0 ms late, long ago
    // The device's clock since ran slow: every later chunk arrives 5 ms late.
    for (let k = 2; k <= 60; k++) clock.chunkArrived(k * 100 + 5, k * 0.1);
    expect(clock.framesAt(6_105, 16_000)).toBe(6_100 * 16);
  });
});
