import { spawn } from 'node:child_process';
import type { Logger } from '../core/ports';

/**
 * How this system opens a web address in the user's browser, or undefined where there is no
 * screen to open one on (a Linux session without a display, a CI machine).
 */
export function browserOpener(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): { command: string; args: string[] } | undefined {
  if (env.CI) return undefined;
  if (platform === 'darwin') return { command: 'open', args: [url] };
  // `start` takes its first quoted argument as a window title, hence the empty one.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', `"${url}"`] };
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return { command: 'xdg-open', args: [url] };
  return undefined;
}

/** Opens `url` in the system browser where there is one; returns whether it tried. Never throws. */
export function openInSystemBrowser(url: string, log: Logger): boolean {
  const opener = browserOpener(url);
  if (!opener) return false;
  try {
    const child = spawn(opener.command, opener.args, {
      detached: true,
      stdio: 'ignore',
      windowsVerbatimArguments: process.platform === 'win32',
    });
    child.on('error', (error) => log.warn('browser mode: the system browser could not be opened', { error }));
    child.unref();
    return true;
  } catch (error) {
    log.warn('browser mode: the system browser could not be opened', { error });
    return false;
  }
}
