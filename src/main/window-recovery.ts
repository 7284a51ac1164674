import type { BrowserWindow } from 'electron';
import type { Logger } from './core/ports';
import type { ReloadGuard } from './core/lifecycle/reload-guard';

export interface WindowRecoveryOptions {
  /** The page the window shows (loaded again after a crash). */
  url: string;
  log: Logger;
  guard: ReloadGuard;
  /** A quit has begun: a window going away then is expected. */
  quitting: () => boolean;
  /** The window keeps crashing: tell the clinician, then close the app. */
  onCrashLoop: () => void;
}

/**
 * The renderer process can die under the window (a crash, out of memory, killed by the system).
 * The visit goes on in the main process; the page, loaded again, finds the recording visit and
 * carries on capturing. So: log why, and load the page again, within the guard's limit.
 *
 * `unresponsive` is only logged: a page that hangs may recover by itself (Electron emits
 * `responsive` then), and reloading it would drop a capture that is only slow.
 */
export function recoverFromRendererCrashes(window: BrowserWindow, options: WindowRecoveryOptions): void {
  const { log } = options;
  window.webContents.on('render-process-gone', (_event, details) => {
    // The reason and exit code only: nothing from the page.
    log.error('window: the renderer process is gone', { reason: details.reason, exitCode: details.exitCode });
    if (window.isDestroyed() || options.quitting()) return;
    if (!options.guard.mayReload()) {
      log.error('window: the renderer keeps crashing; closing the app', {});
      options.onCrashLoop();
      return;
    }
    window.loadURL(options.url).then(
      () => log.info('window: reloaded after the renderer was gone', {}),
      (error: unknown) =>
        log.error('window: could not reload', { error: (error as Error)?.name ?? 'unknown' }),
    );
  });
  window.on('unresponsive', () => log.warn('window: the page is not responding', {}));
  window.on('responsive', () => log.info('window: the page responds again', {}));
}
