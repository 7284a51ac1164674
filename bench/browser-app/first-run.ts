/**
 * The first-run screen and a visit, driven as a clinician would (the labels e2e/ uses), without
 * Playwright Test's `expect`: these scripts run outside the test runner.
 */
import type { Page } from '@playwright/test';

/** The first screen of a fresh data directory. */
export const FIRST_SCREEN_HEADING = 'Set up the documentation service';

/** The sandbox's default bearer partner (sandbox/partners.default.json). */
const BEARER_PARTNER = { id: 'demo-bearer', token: 'sandbox-bearer-partner-token' };

const SIGN_IN_TIMEOUT_MS = 20_000;

async function waitForSignIn(page: Page, providerId?: string): Promise<void> {
  await page.getByRole('heading', { name: 'Visit' }).waitFor();
  await page
    .getByTestId('sign-in-state')
    .filter({ hasText: providerId ? `Signed in as ${providerId}` : /Signed in as / })
    .waitFor({ timeout: SIGN_IN_TIMEOUT_MS });
}

/**
 * First run with the built-in demo service (the default; a bearer partner, so Save signs in),
 * optionally with the notification receiver on.
 */
export async function useBuiltinService(
  page: Page,
  options: { notificationReceiver: boolean },
): Promise<void> {
  await page.getByRole('heading', { name: FIRST_SCREEN_HEADING }).waitFor();
  const receiver = page.getByRole('switch', { name: 'Notification receiver' });
  if ((await receiver.isChecked()) !== options.notificationReceiver) await receiver.click();
  await page.getByRole('button', { name: 'Save' }).click();
  await waitForSignIn(page);
}

/** First run pointed at a sandbox process as its bearer partner, with this auto-pause delay. */
export async function useExternalService(
  page: Page,
  serviceUrl: string,
  options: { providerId: string; autoPauseSeconds: number },
): Promise<void> {
  await page.getByRole('heading', { name: FIRST_SCREEN_HEADING }).waitFor();
  await page.getByLabel('A documentation service at this address').check();
  await page.getByLabel('Service URL').fill(serviceUrl);
  await page.getByLabel('Partner ID').fill(BEARER_PARTNER.id);
  await page.getByLabel('Sign-in model').selectOption('bearer');
  await page.getByLabel('Partner token').fill(BEARER_PARTNER.token);
  await page.getByLabel('Provider ID').fill(options.providerId);
  await page.getByLabel('Auto-pause after (seconds without speech)').fill(String(options.autoPauseSeconds));
  await page.getByRole('button', { name: 'Save' }).click();
  await waitForSignIn(page, options.providerId);
}

/** Starts recording a visit with this encounter id; resolves once the page says it records. */
export async function startVisit(page: Page, encounterId: string): Promise<void> {
  await page.getByLabel('Encounter ID').fill(encounterId);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await page
    .getByTestId('recorder-state')
    .filter({ hasText: /^Recording/ })
    .waitFor({ timeout: 20_000 });
}

/** Waits until the visit's clock shows `clock` (m:ss of captured audio). */
export async function reachClock(page: Page, clock: string, timeoutMs = 90_000): Promise<void> {
  await page
    .getByTestId('elapsed')
    .filter({ hasText: new RegExp(`^\\s*${clock}\\s*$`) })
    .waitFor({ timeout: timeoutMs });
}

export async function endVisit(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'End visit' }).click();
}

/** Waits for the results card to say the note is ready. */
export async function waitForNote(page: Page, timeoutMs = 90_000): Promise<void> {
  await page
    .getByTestId('results-status')
    .filter({ hasText: 'The note is ready.' })
    .waitFor({ timeout: timeoutMs });
}
