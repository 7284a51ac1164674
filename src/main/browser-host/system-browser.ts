import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../core/ports';

/**
 * How this system opens a web address or a file (the launch file below) in the user's browser, or
 * undefined where there is no screen to open one on (a Linux session without a display, CI).
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

/** Opens `url` (or a file) in the system browser where there is one; returns whether it tried. Never throws. */
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

/** Removes the launch file; safe to call more than once. */
export interface LaunchFile {
  readonly path: string;
  remove(): void;
}

/** How long the launch file waits to be opened before it is removed unopened. */
const LAUNCH_FILE_LIFETIME_MS = 60_000;

/**
 * The launch address in a file only this user can read (0600, in the 0700 data directory): a page
 * that sends the browser on to the address. The system browser is handed the file's path, never
 * the address itself, because another user of the computer can read every process's arguments
 * (`ps`, /proc) and the address carries the launch key. The file goes when the key is spent, or
 * unopened after a minute.
 */
export function writeLaunchFile(dataDirectory: string, launchUrl: string): LaunchFile {
  const path = join(dataDirectory, 'browser-launch.html');
  const href = launchUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  writeFileSync(
    path,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">` +
      `<meta http-equiv="refresh" content="0; url=${href}"><title>Ambient Scribe</title></head>` +
      `<body><p>Opening Ambient Scribe… <a href="${href}">Open it</a></p></body></html>`,
    { mode: 0o600 },
  );
  const timer = setTimeout(() => remove(), LAUNCH_FILE_LIFETIME_MS);
  timer.unref();
  const remove = () => {
    clearTimeout(timer);
    rmSync(path, { force: true });
  };
  return { path, remove };
}
