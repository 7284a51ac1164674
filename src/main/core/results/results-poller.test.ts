import { describe, expect, it } from 'vitest';
import type { Clock } from '../ports';
import { pollUntilTerminal } from './results-poller';

/** A clock whose time moves only when the test says; timers fire in order. */
function fakeClock() {
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  const clock: Clock & { advance(ms: number): Promise<void> } = {
    now: () => now,
    every: () => () => undefined,
    after(ms, fn) {
      const timer = { at: now + ms, fn };
      timers.push(timer);
      return () => (timers = timers.filter((t) => t !== timer));
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        await new Promise((r) => setImmediate(r));
        const next = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        timers = timers.filter((t) => t !== next);
        now = next.at;
        next.fn();
      }
      now = end;
      await new Promise((r) => setImmediate(r));
    },
  };
  return clock;
}

describe('polling a session until it is done', () => {
  it('backs off from 1 s to 5 s and stops at the first terminal status', async () => {
    const clock = fakeClock();
    const calls: number[] = [];
    const answers = [
      'processing',
      'processing',
      'processing',
      'processing',
      'processing',
      'processing',
      'completed',
    ];
    const poll = pollUntilTerminal({
      clock,
      status: async () => {
        calls.push(clock.now());
        return answers.shift() ?? 'completed';
      },
    });
    await clock.advance(60_000);
    expect(await poll.done).toBe('completed');
    const gaps = calls.slice(1).map((t, i) => t - (calls[i] as number));
    expect(gaps).toEqual([1_000, 1_500, 2_250, 3_375, 5_000, 5_000]);
    await clock.advance(60_000);
    expect(calls).toHaveLength(7);
  });

  it('treats an unknown status as not finished', async () => {
    const clock = fakeClock();
    const answers = ['queued_for_review', 'skipped'];
    const poll = pollUntilTerminal({ clock, status: async () => answers.shift() ?? 'skipped' });
    await clock.advance(10_000);
    expect(await poll.done).toBe('skipped');
  });

  it('keeps going through a failed status call', async () => {
    const clock = fakeClock();
    let n = 0;
    const poll = pollUntilTerminal({
      clock,
      status: async () => {
        n += 1;
        if (n === 2) throw new Error('network');
        return n < 3 ? 'processing' : 'failed';
      },
    });
    await clock.advance(10_000);
    expect(await poll.done).toBe('failed');
  });

  it('checks at once when woken by a notification', async () => {
    const clock = fakeClock();
    let status = 'processing';
    const seen: number[] = [];
    const poll = pollUntilTerminal({
      clock,
      status: async () => status,
      onProgress: (p) => seen.push(p.elapsedMs),
    });
    await clock.advance(2_600); // polls at 0, 1000, 2500; the next is due at 4750
    status = 'completed';
    poll.wake();
    await clock.advance(0);
    expect(await poll.done).toBe('completed');
    expect(seen.at(-1)).toBe(2_600);
  });

  it('stops when the view closes', async () => {
    const clock = fakeClock();
    const controller = new AbortController();
    let calls = 0;
    const poll = pollUntilTerminal({
      clock,
      signal: controller.signal,
      status: async () => {
        calls += 1;
        return 'processing';
      },
    });
    await clock.advance(3_000);
    controller.abort();
    await expect(poll.done).rejects.toThrow('polling stopped');
    const before = calls;
    await clock.advance(30_000);
    expect(calls).toBe(before);
  });
});
