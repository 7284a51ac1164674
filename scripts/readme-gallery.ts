/**
 * Retakes the README's screenshots (issue 17) at an exam-room laptop's 1366×768: the first run,
 * a ready visit, recording, auto-paused, the note with its transcript, a filled form and History.
 * Browser mode with the built-in demo, Chromium's fake microphone playing the committed
 * conversation. Run after `npm run build`: `node --import tsx scripts/readme-gallery.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { startHostProcess } from '../e2e/support/browser-host-process';
import { launchChromium } from '../e2e/support/chromium';

const OUT = 'docs/images';
const VIEWPORT = { width: 1366, height: 768 };

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`${OUT}/${name}.png`);
}

const dataDir = await mkdtemp(join(tmpdir(), 'scribe-gallery-'));
const host = await startHostProcess(dataDir);
const browser = await launchChromium({ wav: 'e2e/fixtures/conversation.wav' });
try {
  const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: 'light' });
  await page.goto(host.launchUrl);
  await expect(page.getByRole('heading', { name: 'Welcome to Ambient Scribe' })).toBeVisible();
  await shot(page, 'first-run');

  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as demo-clinician');
  await page.getByLabel('Encounter ID').fill('bed12visit3');
  await page.getByLabel('Date of birth').fill('9 Apr 1961');
  await page.getByLabel('Sex').selectOption({ label: 'Female' });
  await page.getByText('Note and forms').click();
  await page.getByLabel('Note template').selectOption({ label: 'SOAP' });
  await page.getByRole('button', { name: 'Add a service form…' }).click();
  await page.getByLabel('Service form').selectOption({ label: 'Vital signs' });
  await page.getByRole('button', { name: 'Add form', exact: true }).click();
  await page.getByText('Note and forms').click();
  await shot(page, 'ready');

  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('elapsed')).toHaveText('0:12', { timeout: 30_000 });
  await shot(page, 'recording');
  const state = page.getByTestId('recorder-state');
  await expect(state).toHaveAttribute('data-state', 'auto-paused', { timeout: 40_000 });
  await page.waitForTimeout(1_500);
  await shot(page, 'auto-paused');

  await expect(state).toHaveAttribute('data-state', 'streaming', { timeout: 20_000 });
  await expect(page.getByTestId('elapsed')).toHaveText('0:38', { timeout: 40_000 });
  await page.getByRole('button', { name: 'End visit' }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
  await page.mouse.move(0, 0);
  await shot(page, 'note');
  await page.getByRole('tab', { name: /^Forms/ }).click();
  await shot(page, 'form');

  // History: a second visit, discarded, beside the first with its note.
  await page.getByRole('button', { name: 'New visit' }).click();
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('elapsed')).toHaveText('0:03', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Cancel…' }).click();
  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByTestId('history')).toContainText('Discarded');
  // The rows, not the explanation above them: opened, it pushed both rows below the fold.
  await shot(page, 'history');
} finally {
  await browser.close();
  await host.stop();
  await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
}
