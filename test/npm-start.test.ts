import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { electronRuntime } from '../e2e/support/electron-runtime';
import { browserOpener } from '../src/main/browser-host/system-browser';
import { callOnSocket, launchKeyOf, openAsPage } from '../src/main/browser-host/testing/page-client';

/**
 * `npm start` as a new user types it, on a machine where Electron's runtime cannot be fetched
 * (this one): one line says so, and the same app starts in browser mode at a printed address.
 * Where the runtime is installed, npm start launches the desktop app instead, so this is skipped.
 */
const electronInstalled = electronRuntime().available;

const dataDir = mkdtempSync(join(tmpdir(), 'scribe-npm-start-'));
// Browser mode may still be writing its log as it exits: removal retries on ENOTEMPTY (seen once).
afterAll(() => rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));

describe.skipIf(electronInstalled)('npm start without Electron', () => {
  it('says in one line that Electron cannot run here, then serves the app in browser mode', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, SCRIBE_DATA_DIR: dataDir };
    // No screen here to open a browser on (and none wanted from a test run).
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    const child = spawn('npm', ['start', '--silent'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const lines: string[] = [];
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no address in 120 s:\n${lines.join('\n')}`)),
          120_000,
        );
        createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line);
          if (line.startsWith('SCRIBE_URL=')) {
            clearTimeout(timer);
            resolve(line.slice('SCRIBE_URL='.length));
          }
        });
        child.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${lines.join('\n')}`)));
      });
      const said = lines.filter((line) => /Electron/.test(line));
      expect(said).toEqual([
        expect.stringMatching(
          /^The Electron runtime is not installed yet; fetching it \(once\)… not possible here \(.+\): starting the app in browser mode instead\.$/,
        ),
      ]);
      const page = await fetch(new URL('/', url));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      // The printed address's key opens the contract, as the window would.
      const { socket } = await openAsPage(new URL(url).origin, launchKeyOf(url));
      expect(await callOnSocket(socket, 1, 'app.info')).toMatchObject({
        ok: true,
        value: { mode: 'browser' },
      });
      socket.close();
    } finally {
      // npm, the start script, the build runner and browser mode: the whole group.
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    }
  }, 180_000);
});

describe('opening the system browser', () => {
  const url = 'http://127.0.0.1:5180/?key=k';
  it('uses the platform’s own opener where there is a screen', () => {
    expect(browserOpener(url, 'darwin', {})).toEqual({ command: 'open', args: [url] });
    expect(browserOpener(url, 'win32', {})).toEqual({
      command: 'cmd',
      args: ['/c', 'start', '""', `"${url}"`],
    });
    expect(browserOpener(url, 'linux', { DISPLAY: ':0' })).toEqual({ command: 'xdg-open', args: [url] });
  });

  it('does not try without a screen, or on a CI machine', () => {
    expect(browserOpener(url, 'linux', {})).toBeUndefined();
    expect(browserOpener(url, 'darwin', { CI: 'true' })).toBeUndefined();
  });
});
