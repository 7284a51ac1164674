import { describe, expect, it } from 'vitest';
import { createMemoryAudioLog } from './audio-log';
import { createDrainPacer } from './drain-pacer';
import { enqueueEvent, nextFrame, type QueuedEvent } from './frame-plan';
import { backoffDelay, verdictForClose, verdictForRefusal } from './reconnect-policy';

/** The pure pieces of the stream client; the socket behaviour is tested against the sandbox. */

describe('cutting the log into frames', () => {
  const cut = (sent: number, events: QueuedEvent[], length: number) => nextFrame(sent, events, length);

  it('sends 100 ms chunks and waits for a partial one at the live edge', () => {
    expect(cut(0, [], 3_200)).toEqual({ kind: 'audio', bytes: 3_200 });
    expect(cut(0, [], 10_000)).toEqual({ kind: 'audio', bytes: 3_200 });
    expect(cut(0, [], 3_000)).toEqual({ kind: 'wait' });
    expect(cut(3_200, [], 3_200)).toEqual({ kind: 'wait' });
  });

  it('never leaves less than 20 ms behind a chunk', () => {
    // 3,200 + 600 would leave 600 bytes (under 640): one 3,800-byte chunk instead.
    expect(cut(0, [], 3_800)).toEqual({ kind: 'audio', bytes: 3_800 });
    expect(cut(0, [], 3_840)).toEqual({ kind: 'audio', bytes: 3_200 });
  });

  it('flushes the audio before an event, then the event', () => {
    const events: QueuedEvent[] = [{ at: 1_000, event: 'PAUSE' }];
    expect(cut(0, events, 5_000)).toEqual({ kind: 'audio', bytes: 1_000 });
    expect(cut(1_000, events, 5_000)).toEqual({ kind: 'event', event: events[0] });
  });

  it('lets an event go first when the audio before it is under 20 ms', () => {
    const events: QueuedEvent[] = [{ at: 3_300, event: 'PAUSE' }];
    expect(cut(3_200, events, 9_000)).toEqual({ kind: 'event', event: events[0] });
  });

  it('collapses KEEP_ALIVEs queued at the same offset', () => {
    const events: QueuedEvent[] = [];
    enqueueEvent(events, 'PAUSE', 100);
    enqueueEvent(events, 'KEEP_ALIVE', 100);
    enqueueEvent(events, 'KEEP_ALIVE', 100);
    enqueueEvent(events, 'KEEP_ALIVE', 200);
    expect(events.map((e) => e.event)).toEqual(['PAUSE', 'KEEP_ALIVE', 'KEEP_ALIVE']);
  });
});

describe('reconnect policy', () => {
  it('retries drops, timeouts, replacement and token expiry; stops on protocol errors and the pause limit', () => {
    expect(verdictForClose(1006, '')).toMatchObject({ action: 'retry' });
    expect(verdictForClose(4008, 'no audio')).toMatchObject({ action: 'retry' });
    expect(verdictForClose(4000, '')).toMatchObject({ action: 'retry' });
    expect(verdictForClose(4001, '')).toMatchObject({ action: 'retry', renewToken: true, immediate: true });
    expect(verdictForClose(1011, '')).toMatchObject({ action: 'retry' });
    expect(verdictForClose(1003, 'bad type')).toMatchObject({ action: 'stop', clientBug: true });
    expect(verdictForClose(1007, 'bad audio')).toMatchObject({ action: 'stop', clientBug: true });
    expect(verdictForClose(4009, '')).toEqual({ action: 'stop', reason: 'pause limit' });
  });

  it('renews once after a refused upgrade (401), stops on 404/409/400, retries 5xx', () => {
    expect(verdictForRefusal(401, false)).toMatchObject({ action: 'retry', renewToken: true });
    expect(verdictForRefusal(401, true)).toMatchObject({ action: 'stop' });
    expect(verdictForRefusal(404, false)).toMatchObject({ action: 'stop' });
    expect(verdictForRefusal(409, false)).toMatchObject({ action: 'stop' });
    expect(verdictForRefusal(400, false)).toMatchObject({ action: 'stop', clientBug: true });
    expect(verdictForRefusal(503, false)).toMatchObject({ action: 'retry' });
  });

  it('doubles the delay up to the cap, with half of it jittered', () => {
    const options = { firstDelayMs: 100, maxDelayMs: 1_000, offlineAfterAttempts: 3 };
    expect([0, 1, 2, 3, 4, 10].map((n) => backoffDelay(n, options, () => 1))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
    expect(backoffDelay(2, options, () => 0)).toBe(200);
  });
});

describe('drain pacer', () => {
  it('allows a short burst, then 4× real time', () => {
    const pacer = createDrainPacer(4, 500);
    pacer.reset(0);
    let sent = 0;
    let now = 0;
    while (now < 2_000) {
      const wait = pacer.take(3_200, now);
      if (wait === 0) sent += 3_200;
      else now += wait;
    }
    // 0.5 s of burst plus 4 × 2 s: 8.5 s of audio in 2 s, give or take a chunk.
    expect(sent / 32_000).toBeGreaterThan(8.3);
    expect(sent / 32_000).toBeLessThanOrEqual(8.6);
  });
});

describe('memory audio log', () => {
  it('reads across appends, frees what the service acknowledged, and refuses to read it again', () => {
    const log = createMemoryAudioLog();
    log.append(Uint8Array.from([1, 2, 3, 4]));
    log.append(Uint8Array.from([5, 6]));
    log.append(Uint8Array.from([7, 8, 9, 10]));
    expect(log.length).toBe(10);
    expect([...log.read(2, 6)]).toEqual([3, 4, 5, 6, 7, 8]);
    expect([...log.read(8, 100)]).toEqual([9, 10]);
    log.release?.(6);
    expect(log.length).toBe(10);
    expect([...log.read(6, 4)]).toEqual([7, 8, 9, 10]);
    expect(() => log.read(4, 2)).toThrow(RangeError);
  });

  it('keeps its own copy of what was appended', () => {
    const log = createMemoryAudioLog();
    const buffer = Uint8Array.from([1, 2]);
    log.append(buffer);
    buffer[0] = 9;
    expect([...log.read(0, 2)]).toEqual([1, 2]);
  });
});
