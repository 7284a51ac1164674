import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import type { Logger } from '../ports';
import { createQuitFlush, QUIT_STOP_TIMEOUT_MS } from './quit-flush';

function harness(stop: () => Promise<void>) {
  const clock = new FakeClock(1_000);
  const lines: string[] = [];
  const log: Logger = {
    info: (message) => lines.push(`info ${message}`),
    warn: (message) => lines.push(`warn ${message}`),
    error: (message) => lines.push(`error ${message}`),
  };
  let quits = 0;
  const flush = createQuitFlush({ stop, quit: () => (quits += 1), log, clock });
  /** One before-quit as Electron emits it: whether the handler held the quit back. */
  const beforeQuit = () => {
    let prevented = false;
    flush.onBeforeQuit({ preventDefault: () => (prevented = true) });
    return prevented;
  };
  return { clock, lines, flush, beforeQuit, quits: () => quits };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('quitting stops the core first', () => {
  it('holds the first before-quit back, stops the core once, then quits for real and lets that through', async () => {
    let stops = 0;
    let finishStop!: () => void;
    const h = harness(() => {
      stops += 1;
      return new Promise<void>((resolve) => (finishStop = resolve));
    });

    expect(h.beforeQuit()).toBe(true);
    expect(h.flush.quitting).toBe(true);
    // ⌘Q again while the core is stopping: still held, no second stop, no quit yet.
    expect(h.beforeQuit()).toBe(true);
    await settle();
    expect(stops).toBe(1);
    expect(h.quits()).toBe(0);

    finishStop();
    await settle();
    expect(h.quits()).toBe(1);
    // The quit this started emits before-quit again: it goes through.
    expect(h.beforeQuit()).toBe(false);
    expect(stops).toBe(1);
    expect(h.lines).toEqual(['info app: core stopped before quitting']);
  });

  it('quits anyway when the core does not stop within 5 s, and says so in the log', async () => {
    const h = harness(() => new Promise<void>(() => undefined));
    h.beforeQuit();
    h.clock.advance(QUIT_STOP_TIMEOUT_MS - 1);
    await settle();
    expect(h.quits()).toBe(0);
    h.clock.advance(1);
    await settle();
    expect(h.quits()).toBe(1);
    expect(h.lines).toEqual(['warn app: the core did not stop in time; quitting anyway']);
  });

  it('quits when stopping the core fails, and says so in the log', async () => {
    const h = harness(() => Promise.reject(new Error('EIO')));
    h.beforeQuit();
    await settle();
    expect(h.quits()).toBe(1);
    expect(h.lines[0]).toBe('error app: stopping the core failed; quitting anyway');
  });

  it('stopWithin shares the one stop with a quit (a failed start exits through it)', async () => {
    let stops = 0;
    const h = harness(async () => {
      stops += 1;
    });
    await h.flush.stopWithin();
    h.beforeQuit();
    await settle();
    expect(stops).toBe(1);
    expect(h.quits()).toBe(1);
  });
});
