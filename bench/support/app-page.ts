/**
 * The app's page driven as a clinician would (the labels e2e/ uses), without Playwright Test's
 * `expect` (these scripts run outside the test runner), and timestamps taken in the page itself.
 */
import type { Page } from '@playwright/test';

/** The sandbox's default bearer partner (sandbox/partners.default.json). */
const BEARER_PARTNER = { id: 'demo-bearer', token: 'sandbox-bearer-partner-token' };

const signedIn = async (page: Page, providerId?: string) => {
  await page.getByRole('heading', { name: 'Next visit' }).waitFor();
  await page
    .getByTestId('sign-in-state')
    .filter({ hasText: providerId ? `Signed in as ${providerId}` : /Signed in as / })
    .waitFor({ timeout: 20_000 });
};

/** One settings page from the top bar's menu; `change` fills it in, then Save and back to the visit. */
async function changeSettings(
  page: Page,
  settingsPage: 'Recording and display' | 'Service (for IT)',
  change: () => Promise<void>,
): Promise<void> {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('menuitem', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: settingsPage }).click();
  await change();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByTestId('save-state').filter({ hasText: 'Saved.' }).waitFor();
  await page.getByRole('button', { name: 'Back to the visit' }).click();
}

/** First run with the built-in demo service (Try the demo: it signs in by itself), receiver on or off. */
export async function useBuiltinService(page: Page, notificationReceiver: boolean): Promise<void> {
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await signedIn(page);
  if (!notificationReceiver) return;
  await changeSettings(page, 'Service (for IT)', async () => {
    const receiver = page.getByRole('switch', { name: 'Notification receiver' });
    if (!(await receiver.isChecked())) await receiver.click();
  });
  await signedIn(page);
}

/** First run pointed at a sandbox process as its bearer partner, with this auto-pause delay. */
export async function useExternalService(
  page: Page,
  serviceUrl: string,
  options: { providerId: string; autoPauseSeconds: number },
): Promise<void> {
  await page.getByRole('button', { name: 'Connect to your organisation’s service' }).click();
  await page.getByLabel('Service URL').fill(serviceUrl);
  await page.getByLabel('Partner ID').fill(BEARER_PARTNER.id);
  await page.getByLabel('Sign-in model').selectOption('bearer');
  await page.getByLabel('Partner token').fill(BEARER_PARTNER.token);
  await page.getByLabel('Provider ID').fill(options.providerId);
  await page.getByRole('button', { name: 'Save' }).click();
  await page
    .getByTestId('sign-in-state')
    .filter({ hasText: `Signed in as ${options.providerId}` })
    .waitFor({ timeout: 20_000 });
  // A bearer partner's clinician, signed in for the first time on this computer, chooses a PIN
  // (issue 29) before the visit screen shows.
  await page.getByTestId('pin-setup').waitFor({ timeout: 20_000 });
  await page.getByTestId('new-pin').fill('2468');
  await page.getByTestId('new-pin-again').fill('2468');
  await page.getByRole('button', { name: 'Set PIN' }).click();
  await signedIn(page, options.providerId);
  await changeSettings(page, 'Recording and display', () =>
    page.getByLabel('Auto-pause after (seconds without speech)').fill(String(options.autoPauseSeconds)),
  );
}

/**
 * Starts recording a visit; resolves once the page says it records. After a visit the pane shows
 * its note until New visit (issue 17's workspace): the next one starts there.
 */
export async function startVisit(page: Page, encounterId?: string): Promise<void> {
  const newVisit = page.getByRole('button', { name: 'New visit' });
  if (await newVisit.isEnabled()) await newVisit.click();
  if (encounterId) await page.getByLabel('Encounter ID').fill(encounterId);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await page
    .getByTestId('recorder-state')
    .filter({ hasText: /^Recording/ })
    .waitFor({ timeout: 20_000 });
}

/** Waits until the visit's clock shows `clock` (m:ss of captured audio), then presses End; returns when (Date.now()). */
export async function endVisitAt(page: Page, clock: string, timeoutMs = 90_000): Promise<number> {
  await page
    .getByTestId('elapsed')
    .filter({ hasText: new RegExp(`^\\s*${clock}\\s*$`) })
    .waitFor({ timeout: timeoutMs });
  const at = Date.now();
  await page.getByRole('button', { name: 'End visit' }).click();
  return at;
}

/** What a MutationObserver in the page watches: an element's text, or one of its attributes. */
export interface Probe {
  name: string;
  /** The first element matching this is watched. */
  selector: string;
  attribute?: string;
}

export interface Mark {
  name: string;
  value: string;
  /** Epoch ms, page clock (`performance.timeOrigin + performance.now()`): compares with Date.now() here. */
  at: number;
}

/**
 * Records each change of what the probes watch, on every document the page loads from now on: the
 * DOM change when React commits it (the paint follows within a frame). Source text, not a function:
 * one handed to addInitScript would carry esbuild's `__name` helper, which the page lacks.
 */
export async function recordMarks(page: Page, probes: Probe[]): Promise<void> {
  await page.addInitScript({
    content: `((probes) => {
  const marks = (window.__benchMarks ??= []);
  const last = new Map();
  new MutationObserver(() => {
    for (const probe of probes) {
      const element = document.querySelector(probe.selector);
      const value = element
        ? probe.attribute ? element.getAttribute(probe.attribute) : (element.textContent ?? '')
        : null;
      if (value === (last.get(probe.name) ?? null)) continue;
      last.set(probe.name, value);
      if (value !== null) marks.push({ name: probe.name, value, at: performance.timeOrigin + performance.now() });
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})(${JSON.stringify(probes)});`,
  });
}

/** Every mark so far, in order. */
export const readMarks = (page: Page): Promise<Mark[]> => page.evaluate<Mark[]>('window.__benchMarks ?? []');
