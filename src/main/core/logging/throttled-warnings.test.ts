import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../ports';
import { throttledWarnings } from './throttled-warnings';

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

afterEach(() => vi.useRealTimers());

describe('throttled warnings', () => {
  it('writes the first of a burst, then one line with the count of the rest, per second', () => {
    vi.useFakeTimers();
    const log = recordingLogger();
    const warn = throttledWarnings(log);
    for (let k = 0; k < 20_000; k++)
      warn(k % 2 ? 'verb refused: unknown verb' : 'verb refused: invalid input');
    vi.advanceTimersByTime(1_000);
    expect(log.lines).toEqual([
      'warn verb refused: invalid input',
      'warn 19999 more like it in 1000 ms, the last: verb refused: unknown verb',
    ]);
    // The next window starts with its own first line.
    warn('verb refused: unknown verb');
    vi.advanceTimersByTime(1_000);
    expect(log.lines).toHaveLength(3);
  });

  it('writes a lone warning at once and nothing after it', () => {
    vi.useFakeTimers();
    const log = recordingLogger();
    throttledWarnings(log)('audio chunk refused (seq 4): too long');
    vi.advanceTimersByTime(5_000);
    expect(log.lines).toEqual(['warn audio chunk refused (seq 4): too long']);
  });
});
