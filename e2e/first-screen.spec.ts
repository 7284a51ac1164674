import { readFileSync } from 'node:fs';
import { expect, test } from './support/fixtures';
import { openSettings, saveAndGoBack, tryTheDemo } from './support/workspace';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

test('the first screen shows app info read over the contract, and main’s heartbeat', async ({ scribe }) => {
  const { page } = scribe;
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });

  const modeWords = scribe.target === 'browser' ? 'browser mode' : 'desktop app';
  // Diagnostics are folded under About in the status bar.
  await expect(page.getByTestId('app-info')).toBeHidden();
  await page.getByText('About', { exact: true }).click();
  await expect(page.getByTestId('app-info')).toHaveText(`Ambient Scribe ${version} · ${modeWords}`);
  await expect(page.getByTestId('data-directory')).toContainText(scribe.dataDir);
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-link', 'connected');
  // Whether the app works, in a clinician's words (issue 31).
  await expect(page.getByTestId('link-state')).toHaveText('Working');
  await expect(page.getByRole('heading', { name: 'Welcome to Ambient Scribe' })).toBeVisible();
  // Nobody chose the demo yet: no "Demo mode" badge before the choice (issue 31).
  await expect(page.getByRole('note')).toHaveCount(0);

  // Events flow from main: the heartbeat number moves on.
  const first = await page.getByTestId('heartbeat').textContent();
  await expect(page.getByTestId('heartbeat')).not.toHaveText(first ?? '', { timeout: 10_000 });

  await page.screenshot({ path: `e2e/artifacts/first-screen-${scribe.target}.png`, fullPage: true });
  // No CSP violation or script error on the way.
  expect(problems).toEqual([]);
});

test('the organisation’s door names every missing or malformed field at once; its settings and the clinician’s survive a restart', async ({
  scribe,
}) => {
  let page = scribe.page;
  await page.getByRole('button', { name: 'Connect to your organisation’s service' }).click();
  await expect(page.getByRole('heading', { name: 'Connect to your organisation’s service' })).toBeVisible();
  // The demo is the other door: this form is for a real service only.
  await expect(page.getByLabel('Built-in sandbox (demo, no account)')).toHaveCount(0);
  await page.getByLabel('Service URL').fill('http://scribe.example.org');
  await page.getByLabel('Sign-in model').selectOption('single_auth_token');
  await page.getByRole('button', { name: 'Save' }).click();
  // All at once: the malformed address and everything missing, each on its field.
  await expect(page.getByText(/^Service URL must be a full https:\/\/ address/)).toBeVisible();
  await expect(
    page.getByText('Partner ID is needed: the ID the service issued at onboarding.'),
  ).toBeVisible();
  await expect(page.getByText('Partner token is needed: the partner token from onboarding.')).toBeVisible();
  await expect(
    page.getByText('Provider ID is needed: your ID in the partner’s system, as agreed at onboarding.'),
  ).toBeVisible();
  for (const field of ['Service URL', 'Partner ID', 'Partner token', 'Provider ID'])
    await expect(page.getByLabel(field, { exact: true })).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Service URL').fill('https://scribe.example.org');
  await page.getByLabel('Partner ID').fill('clinic7');
  await page.getByLabel('Partner token').fill('partner-token-of-clinic-seven');
  await page.getByLabel('Provider ID').fill('dr-seven');
  await page.getByRole('button', { name: 'Save' }).click();
  // First run done: the app goes to the visit screen. Not the demo any more: the badge goes.
  await expect(page.getByRole('heading', { name: 'Next visit' })).toBeVisible();
  await expect(page.getByRole('note')).toHaveCount(0);
  // The clinician's own settings are their own page.
  await openSettings(page, 'Recording and display');
  await expect(page.getByLabel('Service URL')).toHaveCount(0);
  // The microphone's processing is off by default (the service wants the room as it is).
  await expect(page.getByLabel('Echo cancellation')).not.toBeChecked();
  await page.getByLabel('Noise suppression').check();
  await saveAndGoBack(page);
  // The note template chosen for a visit is the next launch's too.
  await page.getByText('Note and forms').click();
  await page.getByLabel('Note template').selectOption({ label: 'History and physical' });
  await expect(page.getByText('Note and forms')).toContainText('History and physical');

  page = await scribe.restart();

  // A returning clinician lands on the visit screen; the settings are in the menu.
  await expect(page.getByTestId('link-state')).toHaveAttribute('data-link', 'connected');
  await expect(page.getByRole('heading', { name: 'Next visit' })).toBeVisible();
  await expect(page.getByText('Note and forms')).toContainText('History and physical');
  await openSettings(page, 'Service (for IT)');
  await expect(page.getByLabel('Service URL')).toHaveValue('https://scribe.example.org');
  await expect(page.getByLabel('Partner ID')).toHaveValue('clinic7');
  await expect(page.getByLabel('Sign-in model')).toHaveValue('single_auth_token');
  await expect(page.getByLabel('Noise suppression')).toHaveCount(0);
  await openSettings(page, 'Recording and display');
  await expect(page.getByLabel('Noise suppression')).toBeChecked();
  await expect(page.getByLabel('Echo cancellation')).not.toBeChecked();
});

test('the words a clinician reads: the demo badge once the demo is chosen, who is signed in and nothing more, "Saved." only after Save', async ({
  scribe,
}) => {
  const { page } = scribe;
  await expect(page.getByRole('note')).toHaveCount(0);
  await tryTheDemo(page);
  await expect(page.getByRole('note')).toContainText('Demo mode');
  await expect(page.getByTestId('sign-in-state')).toHaveText('Signed in as demo-clinician');
  await expect(page.getByTestId('link-state')).toHaveText('Working');
  // The first run saved the settings; Settings opened now has saved nothing yet.
  await openSettings(page, 'Recording and display');
  await expect(page.getByTestId('save-state')).toHaveText('');
  await page.getByLabel('Theme').selectOption('dark');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('Saved.');
  // The other page saved nothing of its own.
  await page.getByRole('tab', { name: 'Service (for IT)' }).click();
  await expect(page.getByTestId('save-state')).toHaveText('');
});
