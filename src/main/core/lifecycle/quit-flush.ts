import type { Clock, Logger } from '../ports';

/**
 * Quitting the desktop app stops the core first: its stop() flushes queued History writes and
 * fsyncs the open spool segments. Electron emits `window-all-closed` only when the windows close
 * by themselves, not on ⌘Q, the app menu's Quit or app.quit(), which emit `before-quit` (Electron
 * docs, app.md); so the shell holds the first `before-quit` back, stops the core, and quits again.
 * A stop that hangs (a disk that does not answer) must not keep the app from quitting: after
 * `timeoutMs` it quits anyway, and says so in the log. (The second quit could still be cancelled
 * by a page's beforeunload handler, app.md says; this app's page registers none.)
 */

export interface QuitFlushOptions {
  stop: () => Promise<void>;
  /** Quits for real (app.quit()): emits before-quit again, which this then lets through. */
  quit: () => void;
  log: Logger;
  clock: Clock;
  timeoutMs?: number;
}

export const QUIT_STOP_TIMEOUT_MS = 5_000;

export interface QuitFlush {
  /** The `before-quit` handler. */
  onBeforeQuit(event: { preventDefault(): void }): void;
  /** Stops the core within the bound (once, however often asked); for paths that exit without quitting. */
  stopWithin(): Promise<void>;
  /** Whether a quit has begun (a crashed window is then not reloaded). */
  readonly quitting: boolean;
}

export function createQuitFlush(options: QuitFlushOptions): QuitFlush {
  const timeoutMs = options.timeoutMs ?? QUIT_STOP_TIMEOUT_MS;
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  let stopping: Promise<void> | undefined;

  const stopWithin = () =>
    (stopping ??= new Promise<void>((resolve) => {
      const startedAt = options.clock.now();
      const cancel = options.clock.after(timeoutMs, () => {
        options.log.warn('app: the core did not stop in time; quitting anyway', { timeoutMs });
        resolve();
      });
      options
        .stop()
        .catch((error: unknown) =>
          options.log.error('app: stopping the core failed; quitting anyway', {
            error: (error as Error)?.name ?? 'unknown',
          }),
        )
        .finally(() => {
          cancel();
          options.log.info('app: core stopped before quitting', { ms: options.clock.now() - startedAt });
          resolve();
        });
    }));

  return {
    get quitting() {
      return state !== 'running';
    },
    stopWithin,
    onBeforeQuit(event) {
      // The second before-quit is the one this handler started: let it through.
      if (state === 'stopped') return;
      event.preventDefault();
      // ⌘Q pressed again while stopping: the quit is already on its way.
      if (state === 'stopping') return;
      state = 'stopping';
      void stopWithin().then(() => {
        state = 'stopped';
        options.quit();
      });
    },
  };
}
