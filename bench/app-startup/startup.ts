/**
 * Start-up, timed from spawning the process that serves the page to what Chromium shows: browser
 * mode (`node out/main/browser.js` on an empty data directory, so the first-run screen) against a
 * bare static server for the same built renderer. Each load in a new browser context (empty cache).
 */
import type { Browser } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHostProcess } from '../../e2e/support/browser-host-process';
import { FIRST_SCREEN_HEADING } from '../browser-app/first-run';
import { firstMark, readMarks, recordMarks } from '../browser-app/page-marks';
import { startStaticProcess } from './static-process';

export interface Startup {
  /** Spawn → the process printed its address, ms. */
  listeningMs: number;
  /** Spawn → DOMContentLoaded of the page, ms. */
  domContentLoadedMs: number;
  /** Navigation start → DOMContentLoaded, ms. */
  navigationToDclMs: number;
  /** Spawn → the first screen's heading in the DOM (ours only), ms. */
  headingMs?: number;
  navigationToHeadingMs?: number;
}

interface Navigation {
  origin: number;
  dcl: number;
}

interface Spawned {
  url: string;
  stop(): Promise<void>;
}

/** The page is ready before the spawn, so the times hold no browser set-up. */
async function timeStart(
  browser: Browser,
  spawnServer: () => Promise<Spawned>,
  heading: boolean,
): Promise<Startup> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    if (heading) await recordMarks(page, [{ name: 'heading', selector: 'form.card > h2' }]);
    const spawnedAt = Date.now();
    const server = await spawnServer();
    const listeningAt = Date.now();
    try {
      await page.goto(server.url, { waitUntil: 'domcontentloaded' });
      if (heading) await page.getByRole('heading', { name: FIRST_SCREEN_HEADING }).waitFor();
      // Source text: this code runs in the page, whose DOM types the Node typecheck does not have.
      const navigation = await page.evaluate<Navigation>(
        '({ origin: performance.timeOrigin, dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd })',
      );
      const result: Startup = {
        listeningMs: listeningAt - spawnedAt,
        domContentLoadedMs: navigation.origin + navigation.dcl - spawnedAt,
        navigationToDclMs: navigation.dcl,
      };
      if (!heading) return result;
      const at = firstMark(await readMarks(page), 'heading', FIRST_SCREEN_HEADING);
      if (at === undefined) throw new Error('the first screen appeared but the page saw no heading mark');
      return { ...result, headingMs: at - spawnedAt, navigationToHeadingMs: at - navigation.origin };
    } finally {
      await server.stop();
    }
  } finally {
    await context.close();
  }
}

export async function startOurs(browser: Browser): Promise<Startup> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scribe-bench-startup-'));
  try {
    return await timeStart(
      browser,
      async () => {
        const host = await startHostProcess(dataDir);
        return { url: host.launchUrl, stop: () => host.stop() };
      },
      true,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function startReference(browser: Browser, rendererDir: string): Promise<Startup> {
  return timeStart(browser, () => startStaticProcess(rendererDir), false);
}
