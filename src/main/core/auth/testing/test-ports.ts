import { systemClock, type Clock, type Logger } from '../../ports';

/** A logger that keeps every line, to count events and to search them for secrets. */
export function captureLog(): Logger & { lines: { level: string; message: string; fields?: unknown }[] } {
  const lines: { level: string; message: string; fields?: unknown }[] = [];
  const add = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, message, ...(fields ? { fields } : {}) });
  return { lines, info: add('info'), warn: add('warn'), error: add('error') };
}

export function count(log: { lines: { message: string }[] }, message: string): number {
  return log.lines.filter((line) => line.message === message).length;
}

/** The real clock, shifted: lets a test step past an ID token's expiry without waiting an hour. */
export function shiftedClock(): Clock & { shiftMs: number } {
  const clock = {
    shiftMs: 0,
    now: () => systemClock.now() + clock.shiftMs,
    every: systemClock.every,
    after: systemClock.after,
  };
  return clock;
}

/**
 * Time that stands still and timers that never fire: the manager keeps believing in a token the
 * service has already let expire, which is how a test gets a real 401 out of the sandbox.
 */
export function frozenClock(at = Date.now()): Clock {
  return { now: () => at, every: () => () => {}, after: () => () => {} };
}

/** Resolves once check() holds, polling; fails after timeoutMs. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
