import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, test } from '@playwright/test';
import { launchChromium } from './support/chromium';
import { watchCsp } from './support/csp-watch';

/**
 * `npm run dev` where Electron's runtime is missing (scripts/dev.mjs): browser mode with the
 * renderer from Vite's dev server (scripts/dev-browser.ts, started here directly, so the spec
 * runs the same on a machine with Electron). Chromium loads the dev page through the launch
 * address and sees the first screen, with hot reload connected and React Fast Refresh's inline
 * preamble run, and no CSP violation: the dev CSP admits what hot reload needs.
 */
test('the dev renderer (Vite, hot reload) loads in Chromium: the first screen, HMR connected, no CSP violation', async () => {
  test.setTimeout(90_000);
  const dataDir = await mkdtemp(join(tmpdir(), 'scribe-dev-'));
  const env = { ...process.env };
  // No screen to open a browser on here (and none wanted from a test run).
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/dev-browser.ts', '--port', '0', '--data', dataDir],
    { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const browser = await launchChromium();
  try {
    const lines: string[] = [];
    const launchUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address in 60 s:\n${lines.join('\n')}`)), 60_000);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        lines.push(line);
        if (line.startsWith('SCRIBE_URL=')) {
          clearTimeout(timer);
          resolve(line.slice('SCRIBE_URL='.length));
        }
      });
      child.once('exit', (code) => reject(new Error(`dev-browser exited (${code}):\n${lines.join('\n')}`)));
    });

    const page = await browser.newPage();
    const csp = await watchCsp(page);
    const consoleLines: string[] = [];
    page.on('console', (message) => consoleLines.push(message.text()));
    await page.goto(launchUrl);

    await expect(page.getByRole('heading', { name: 'Welcome to Ambient Scribe' })).toBeVisible({
      timeout: 30_000,
    });
    // Served by Vite's dev server: modules from source, Vite's client in the page.
    expect(
      await page.evaluate(() => Array.from(document.scripts).some((s) => s.src.endsWith('/@vite/client'))),
      "Vite's client script",
    ).toBe(true);
    // Hot reload's socket is open, and React Fast Refresh's inline preamble ran.
    await expect.poll(() => consoleLines.some((line) => line.includes('[vite] connected'))).toBe(true);
    expect(await page.evaluate(() => typeof (window as { $RefreshReg$?: unknown }).$RefreshReg$)).toBe(
      'function',
    );
    expect(csp.violations).toEqual([]);
    expect(csp.consoleMessages).toEqual([]);
  } finally {
    await browser.close();
    if (child.pid && child.exitCode === null) {
      const exited = once(child, 'exit');
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    // Browser mode writes its last log line as it stops (seen once as ENOTEMPTY): rm tries again.
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
});
