/**
 * One short visit in browser mode with the built-in demo service: a few seconds of the conversation's
 * first turn, End, and the results card until it says the note is ready; then how long after the
 * service finished the page showed it.
 */
import type { Browser, Page } from '@playwright/test';
import { endVisit, reachClock, startVisit, useBuiltinService, waitForNote } from '../browser-app/first-run';
import { startApp, type App } from '../browser-app/launch';
import { readMarks, recordMarks, type Mark } from '../browser-app/page-marks';
import { statusReachedAt } from './sandbox-timeline';

export const NOTE_READY = 'The note is ready.';
/** The first turn ends at 3.4 s: End at 0:04. */
const END_AT = '0:04';

export interface Way {
  notificationReceiver: boolean;
  app: App;
  page: Page;
}

/** Browser mode on a fresh data directory, first run done with the receiver on or off. */
export async function openWay(browser: Browser, notificationReceiver: boolean): Promise<Way> {
  const app = await startApp();
  const context = await browser.newContext();
  const page = await context.newPage();
  await recordMarks(page, [
    { name: 'status', selector: '[data-testid="results-status"]' },
    { name: 'sections', selector: '[data-testid="results"] .note-section h4' },
  ]);
  await page.goto(app.host.launchUrl);
  await useBuiltinService(page, { notificationReceiver });
  return { notificationReceiver, app, page };
}

export interface Latency {
  notificationReceiver: boolean;
  encounterId: string;
  /** End pressed → the service's session completed, ms (processing, for context). */
  processingMs: number;
  /** Service completed → "The note is ready." in the page, ms. */
  statusMs: number;
  /** Service completed → the note's first section in the page, ms (undefined if not seen). */
  sectionsMs: number | undefined;
}

const after = (marks: Mark[], name: string, since: number, value?: string) =>
  marks.find((m) => m.name === name && m.at >= since && (value === undefined || m.value.trim() === value))
    ?.at;

export async function measureVisit(way: Way, encounterId: string): Promise<Latency> {
  const { page } = way;
  await startVisit(page, encounterId);
  await reachClock(page, END_AT, 30_000);
  const endedAt = Date.now();
  await endVisit(page);
  await waitForNote(page, 60_000);
  const completedAt = await statusReachedAt(way.app.dataDir, encounterId, 'completed');
  const marks = await readMarks(page);
  const statusAt = after(marks, 'status', endedAt, NOTE_READY);
  if (statusAt === undefined) throw new Error(`no "${NOTE_READY}" mark after End (${encounterId})`);
  const sectionsAt = after(marks, 'sections', endedAt);
  return {
    notificationReceiver: way.notificationReceiver,
    encounterId,
    processingMs: completedAt - endedAt,
    statusMs: statusAt - completedAt,
    sectionsMs: sectionsAt === undefined ? undefined : sectionsAt - completedAt,
  };
}
