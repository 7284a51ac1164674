import { describe, expect, it } from 'vitest';
import { startupFailureMessage, windowCrashLoopMessage } from './failure-messages';
import { createReloadGuard, MAX_RELOADS, RELOAD_WINDOW_MS } from './reload-guard';

describe('reloading a crashed window', () => {
  it('allows 3 reloads within 60 s, refuses the 4th, and allows again once the first is a minute old', () => {
    let now = 0;
    const guard = createReloadGuard(() => now);
    expect([guard.mayReload(), guard.mayReload(), guard.mayReload()]).toEqual([true, true, true]);
    now = RELOAD_WINDOW_MS - 1;
    expect(guard.mayReload()).toBe(false);
    now = RELOAD_WINDOW_MS;
    expect(guard.mayReload()).toBe(true);
    expect(MAX_RELOADS).toBe(3);
  });

  it('crashes far apart never add up', () => {
    let now = 0;
    const guard = createReloadGuard(() => now);
    for (let i = 0; i < 20; i += 1) {
      now += 25_000;
      expect(guard.mayReload()).toBe(true);
    }
  });
});

describe('the dialogs when the app cannot go on', () => {
  const logPath = '/home/dr/.config/Ambient Scribe/logs/main.log';

  it('a failed start says what happened, what to do, and where the log is', () => {
    const message = startupFailureMessage(logPath);
    expect(message.title).toBe('Ambient Scribe could not start');
    expect(message.content).toMatch(/^Ambient Scribe ran into a problem while starting and has to close\./);
    expect(message.content).toContain('Start the app again');
    expect(message.content.endsWith(`\n\n${logPath}`)).toBe(true);
  });

  it('a window that keeps crashing says how often, that the visit is kept, and where the log is', () => {
    const message = windowCrashLoopMessage(logPath, 4, 60);
    expect(message.content).toMatch(/^The Ambient Scribe window stopped working 4 times within 60 seconds/);
    expect(message.content).toContain('finish it under Earlier visits');
    expect(message.content.endsWith(`\n\n${logPath}`)).toBe(true);
  });
});
