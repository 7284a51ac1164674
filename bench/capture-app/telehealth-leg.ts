/**
 * The second source's cost (issue 30): a "call" tab playing the patient's side in a loop in the
 * same browser, and a telehealth visit that shares its sound and mixes it with the microphone. The
 * call tab is set up by content (no address, nothing to route while the browser runs detached);
 * the browser was launched with its title (e2e/support/chromium.ts callTabFlags), so
 * getDisplayMedia shares it without a picker.
 */
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { CALL_TAB_TITLE } from '../../e2e/support/chromium';
import { startVisit } from '../support/app-page';

/** What the call plays: the telehealth fixture's patient, looped. */
export const CALL_WAV = 'e2e/fixtures/telehealth-patient.wav';

/**
 * The app's page among the browser's tabs once the call's is open (a connection over CDP lists
 * them in no fixed order).
 */
export async function appPage(any: Page, appOrigin: string): Promise<Page> {
  const page = any
    .context()
    .pages()
    .find((candidate) => candidate.url().startsWith(appOrigin));
  if (!page) throw new Error(`no tab of the app (${appOrigin}) is open`);
  // In front each time it is driven: the browser runs as a clinician's (bench/support/run.ts), where
  // a tab behind another is hidden and Playwright's clicks wait for frames it does not draw.
  await page.bringToFront();
  return page;
}

/** Opens the call tab in `page`'s browser, playing in a loop; resolves once it plays. */
export async function openLoopingCall(page: Page): Promise<void> {
  const audio = readFileSync(CALL_WAV).toString('base64');
  const call = await page.context().newPage();
  await call.setContent(
    `<!doctype html><html lang="en"><head><title>${CALL_TAB_TITLE}</title></head><body>` +
      `<audio src="data:audio/wav;base64,${audio}" autoplay loop></audio></body></html>`,
  );
  // Source text: this file is compiled without the DOM's types (bench/ runs in Node).
  await call.waitForFunction(
    "(() => { const a = document.querySelector('audio'); return a !== null && !a.paused && a.currentTime > 0; })()",
  );
  await page.bringToFront();
}

/**
 * After End: waits for the visit's note (its processing would otherwise run into the next window)
 * and goes back to the visit screen.
 */
export async function readyAfterTheNote(page: Page): Promise<void> {
  await page
    .getByTestId('results-status')
    .filter({ hasText: 'The note is ready.' })
    .waitFor({ timeout: 90_000 });
  await page.getByRole('button', { name: 'New visit' }).click();
  await page.getByRole('heading', { name: 'Next visit' }).waitFor();
}

/** Discards the visit recording (no note to make) and goes back to the visit screen. */
export async function discardVisit(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Cancel…' }).click();
  await page.getByRole('button', { name: 'Discard' }).click();
  await page.getByRole('heading', { name: 'Next visit' }).waitFor();
}

/**
 * Chooses Telehealth on the visit screen and starts a visit, which shares the call tab's sound;
 * resolves once the page says it records the computer's sound too.
 */
export async function startTelehealthVisit(page: Page): Promise<void> {
  const telehealth = { name: 'Telehealth: this computer’s sound too' };
  await page.getByRole('radio', telehealth).click();
  // Chosen once main has saved it: a Start before then would record in the room.
  await page.getByRole('radio', { ...telehealth, checked: true }).waitFor();
  await startVisit(page);
  await page
    .getByTestId('call-state')
    .filter({ hasText: 'Recording this computer’s sound too' })
    .waitFor({ timeout: 20_000 });
}

/** The visit's clock (m:ss of audio captured) in seconds, and when it was read. */
export async function readClock(page: Page): Promise<{ seconds: number; at: number }> {
  const text = (await page.getByTestId('elapsed').textContent())?.trim() ?? '';
  const [minutes, seconds] = text.split(':').map(Number);
  if (!Number.isFinite(minutes) || !Number.isFinite(seconds))
    throw new Error(`the visit's clock reads "${text}"`);
  return { seconds: minutes! * 60 + seconds!, at: Date.now() };
}
