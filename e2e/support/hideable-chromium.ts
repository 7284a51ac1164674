import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS, chromiumExecutable } from './chromium';

/**
 * A Chromium whose page can really be hidden. A page Playwright opens never is: it enables
 * DevTools focus emulation on every page it creates (which keeps the page visible), and launches
 * Chromium with --disable-background-timer-throttling, --disable-renderer-backgrounding and
 * --disable-backgrounding-occluded-windows. Measured on Debian's Chromium 156, headless: with
 * those, neither another tab in front nor a minimized window (CDP Browser.setWindowBounds) changes
 * document.visibilityState. So this Chromium is started as a plain process (none of those flags)
 * and Playwright attaches over CDP without its defaults (`noDefaults`, the default context's
 * page): then both hide the page ('hidden', visibilitychange) and its timers are throttled as a
 * clinician's would be (a 100 ms interval runs about once a second).
 */
export interface HideableChromium {
  browser: Browser;
  page: Page;
  /** Minimizes the page's window (the clinician minimizes the app). */
  minimize(): Promise<void>;
  /** Another tab in front of the page, in the same window (the clinician moves to the EHR). */
  otherTabInFront(): Promise<void>;
  /** The page's window back to normal and the page's tab in front. */
  show(): Promise<void>;
  close(): Promise<void>;
}

export async function launchHideableChromium(flags: string[]): Promise<HideableChromium> {
  const executable = chromiumExecutable();
  if (!executable) throw new Error('no Chromium: set CHROMIUM_PATH');
  const profile = await mkdtemp(join(tmpdir(), 'scribe-e2e-chromium-'));
  const child: ChildProcess = spawn(
    executable,
    [
      '--headless',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      ...CHROMIUM_FLAGS,
      ...flags,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  const port = await devToolsPort(profile);
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, { noDefaults: true } as never);
  const context = browser.contexts()[0]!;
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp: CDPSession = await context.newCDPSession(page);
  const { windowId } = (await cdp.send('Browser.getWindowForTarget')) as { windowId: number };
  let other: Page | undefined;
  return {
    browser,
    page,
    async minimize() {
      await cdp.send('Browser.setWindowBounds', { windowId, bounds: { windowState: 'minimized' } });
    },
    async otherTabInFront() {
      other = await context.newPage();
      await other.goto('about:blank');
      await other.bringToFront();
    },
    async show() {
      await cdp.send('Browser.setWindowBounds', { windowId, bounds: { windowState: 'normal' } });
      await other?.close();
      other = undefined;
      await page.bringToFront();
    },
    async close() {
      await browser.close().catch(() => undefined);
      child.kill();
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      // Chromium's helper processes can still write into the profile for a moment after the main
      // process exits (seen once as ENOTEMPTY): rm tries again rather than fail the test.
      await rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

/** The port Chromium chose, from the DevToolsActivePort file it writes into its profile. */
async function devToolsPort(profile: string): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const text = await readFile(join(profile, 'DevToolsActivePort'), 'utf8').catch(() => '');
    const port = Number(text.split('\n')[0]);
    if (port > 0) return port;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('Chromium did not open its DevTools port');
}
