import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { pollUntilTerminal } from './results-poller';

describe('polling a session until it is done', () => {
  it('backs off from 1 s to 5 s and stops at the first terminal status', async () => {
    const clock = new FakeClock();
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
    await clock.settle(60_000);
    expect(await poll.done).toBe('completed');
    const gaps = calls.slice(1).map((t, i) => t - (calls[i] as number));
    expect(gaps).toEqual([1_000, 1_500, 2_250, 3_375, 5_000, 5_000]);
    await clock.settle(60_000);
    expect(calls).toHaveLength(7);
  });

  it('treats an unknown status as not finished', async () => {
    const clock = new FakeClock();
    const answers = ['queued_for_review', 'skipped'];
    const poll = pollUntilTerminal({ clock, status: async () => answers.shift() ?? 'skipped' });
    await clock.settle(10_000);
    expect(await poll.done).toBe('skipped');
  });

  it('keeps going through a failed status call', async () => {
    const clock = new FakeClock();
    let n = 0;
    const poll = pollUntilTerminal({
      clock,
      status: async () => {
        n += 1;
        if (n === 2) throw new Error('network');
        return n < 3 ? 'processing' : 'failed';
      },
    });
    await clock.settle(10_000);
    expect(await poll.done).toBe('failed');
  });

  it('checks at once when woken by a notification', async () => {
    const clock = new FakeClock();
    let status = 'processing';
    const seen: number[] = [];
    const poll = pollUntilTerminal({
      clock,
      status: async () => status,
      onProgress: (p) => seen.push(p.elapsedMs),
    });
    await clock.settle(2_600); // polls at 0, 1000, 2500; the next is due at 4750
    status = 'completed';
    poll.wake();
    await clock.settle(0);
    expect(await poll.done).toBe('completed');
    expect(seen.at(-1)).toBe(2_600);
  });

  it('stops when the view closes', async () => {
    const clock = new FakeClock();
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
    await clock.settle(3_000);
    controller.abort();
    await expect(poll.done).rejects.toThrow('polling stopped');
    const before = calls;
    await clock.settle(30_000);
    expect(calls).toBe(before);
  });
});
