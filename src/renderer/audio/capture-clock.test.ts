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

describe('CaptureClock on the microphone’s own count (track stats)', () => {
  /** A microphone whose delivered audio (ms) the test sets. */
  function counted() {
    const microphone = { deliveredMs: 0 };
    return { microphone, clock: new CaptureClock(() => microphone.deliveredMs) };
  }

  it('takes what is still in the capture path: a backlog that stood through every chunk', () => {
    const { microphone, clock } = counted();
    // 30 ms of audio delivered before the worklet's first frame; at first chunks arrive at once.
    for (let k = 1; k <= 20; k++) {
      microphone.deliveredMs = 30 + k * 100;
      clock.chunkArrived(k * 100, k * 0.1);
    }
    // Then the machine gets busy: 550 ms of audio waits in Web Audio's FIFO from chunk to chunk,
    // for longer than the page-clock estimate remembers.
    for (let k = 21; k <= 90; k++) {
      microphone.deliveredMs = 30 + k * 100 + 550;
      clock.chunkArrived(k * 100 + 550, k * 0.1);
    }
    // End at 9,560 ms of delivered audio: the worklet has 9,000 ms, it must take 9,530 ms.
    microphone.deliveredMs = 9_560;
    expect(clock.framesAt(9_560, 16_000)).toBe(9_530 * 16);
  });

  it('a chunk the page picked up late does not move it: the least difference counts', () => {
    const { microphone, clock } = counted();
    for (let k = 1; k <= 12; k++) {
      microphone.deliveredMs = 10 + k * 100 + (k % 3 === 0 ? 400 : 0);
      clock.chunkArrived(k * 100, k * 0.1);
    }
    microphone.deliveredMs = 1_300;
    expect(clock.framesAt(0, 16_000)).toBe(1_290 * 16);
  });

  it('zeros Web Audio put in a gap move the offset down at once', () => {
    const { microphone, clock } = counted();
    for (let k = 1; k <= 12; k++) {
      microphone.deliveredMs = 40 + k * 100;
      clock.chunkArrived(k * 100, k * 0.1);
    }
    // 20 ms of zeros: the worklet's input is now 20 ms ahead of what the microphone delivered.
    microphone.deliveredMs = 40 + 1_300 - 20;
    clock.chunkArrived(1_300, 1.3);
    microphone.deliveredMs = 1_500;
    expect(clock.framesAt(0, 16_000)).toBe((1_500 - 20) * 16);
  });

  it('says nothing in the first second, and uses the page clock where the engine does not count', () => {
    const { microphone, clock } = counted();
    microphone.deliveredMs = 130;
    clock.chunkArrived(100, 0.1);
    expect(clock.framesAt(200, 16_000)).toBeUndefined();
    const uncounted = new CaptureClock(() => undefined);
    for (let k = 1; k <= 10; k++) uncounted.chunkArrived(k * 100 + 12, k * 0.1);
    expect(uncounted.framesAt(1_100, 16_000)).toBe(1_088 * 16);
  });
});
