import { describe, expect, it } from 'vitest';
import { CaptureClock } from './capture-clock';

describe('CaptureClock', () => {
  it('knows nothing before the first chunk', () => {
    expect(new CaptureClock().framesAt(5_000, 16_000)).toBe(0);
  });

  it('counts from the promptest chunk: the capture latency is the least delay seen', () => {
    const clock = new CaptureClock();
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
