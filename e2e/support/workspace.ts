import { expect, type Page } from '@playwright/test';

/** The first run's demo door: one click, and the workspace opens on the next visit. */
export async function tryTheDemo(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Try the demo' }).click();
  await expect(page.getByRole('heading', { name: 'Next visit' })).toBeVisible();
}

export type SettingsPage = 'Recording and display' | 'Service (for IT)';

/** Settings from the top bar's menu, on one of its two pages. */
export async function openSettings(page: Page, settingsPage: SettingsPage): Promise<void> {
  await chooseFromMenu(page, 'Settings');
  await page.getByRole('tab', { name: settingsPage }).click();
  await expect(page.getByRole('tab', { name: settingsPage })).toHaveAttribute('aria-selected', 'true');
}

/** Saves the open settings page, waits for "Saved." and goes back to the visit. */
export async function saveAndGoBack(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('Saved.');
  await page.getByRole('button', { name: 'Back to the visit' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toHaveCount(0);
}

/** One item of the top bar's menu (React Aria's Menu: a menu button and menu items). */
export async function chooseFromMenu(page: Page, item: 'Settings' | 'Sign out'): Promise<void> {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

/** The demo as a standard partner: Try the demo, then its sign-in model in the service settings. */
export async function tryTheDemoAsStandardPartner(page: Page): Promise<void> {
  await tryTheDemo(page);
  await openSettings(page, 'Service (for IT)');
  await page.getByLabel('Sign-in model').selectOption('standard');
  await saveAndGoBack(page);
  await expect(page.getByTestId('sign-in-state')).toHaveText('Not signed in');
}

/**
 * A Bearer or Single Auth Token partner's clinician, signed in for the first time on this
 * computer, chooses the PIN that unlocks the window as them (issue 29).
 */
export async function choosePin(page: Page, pin = '2468'): Promise<void> {
  await expect(page.getByTestId('pin-setup')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('new-pin').fill(pin);
  await page.getByTestId('new-pin-again').fill(pin);
  await page.getByRole('button', { name: 'Set PIN' }).click();
  await expect(page.getByTestId('pin-setup')).toHaveCount(0);
}

/** Signed in as `providerId` at the app's first launch, who chooses `pin` for this computer. */
export async function signedInWithPin(page: Page, providerId: string, pin = '2468'): Promise<void> {
  await expect(page.getByTestId('sign-in-state')).toContainText(`Signed in as ${providerId}`, {
    timeout: 20_000,
  });
  await choosePin(page, pin);
}

/** The locked window's PIN, typed and sent. */
export async function unlockWithPin(page: Page, pin: string): Promise<void> {
  await page.getByTestId('pin').fill(pin);
  await page.getByRole('button', { name: 'Unlock' }).click();
}

/**
 * Records a visit on the ready screen as it stands (the demo, or a service already set up): the
 * encounter ID typed, Start, `seconds` of the conversation, End, and the note. Details to fill
 * first (a date of birth, forms) are the caller's.
 */
export async function recordVisit(page: Page, encounterId: string, seconds: number): Promise<void> {
  await page.getByLabel('Encounter ID').fill(encounterId);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await untilRecorded(page, seconds, 30_000);
  await page.getByRole('button', { name: /End visit/ }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
}

/** What the visit's clock shows, in seconds (m:ss or h:mm:ss); 0 before it shows anything. */
export async function recordedSeconds(page: Page): Promise<number> {
  const shown = (
    (await page
      .getByTestId('elapsed')
      .textContent()
      .catch(() => null)) ?? ''
  ).trim();
  if (!/^\d+(:\d\d){1,2}$/.test(shown)) return 0;
  return shown.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/**
 * The visit's line after End (`visit-line`) and the seconds without audio it keeps for a reload
 * ("· N s without audio (the window reloaded)"); 0 when it keeps none.
 */
export async function secondsWithoutAudio(page: Page): Promise<{ line: string; seconds: number }> {
  const line = (await page.getByTestId('visit-line').textContent()) ?? '';
  const shown = /· (\d+) s without audio \(the window reloaded\)/.exec(line)?.[1];
  return { line, seconds: Number(shown ?? 0) };
}

/**
 * Waits until the visit's clock shows at least `seconds`. The clock counts the audio main has
 * received: on a busy machine chunks held for a moment arrive together and move it on by several
 * seconds at once, so a wait for one exact second could miss it (issue 36, the test's timing).
 * Still fails when the clock never gets there.
 */
export async function untilRecorded(page: Page, seconds: number, timeout: number): Promise<void> {
  await expect
    .poll(() => recordedSeconds(page), { timeout, intervals: [100, 250], message: `${seconds} s recorded` })
    .toBeGreaterThanOrEqual(seconds);
}
