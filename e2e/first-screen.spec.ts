import { readFileSync } from 'node:fs';
import { expect, test } from './support/fixtures';

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
  await expect(page.getByTestId('link-state')).toHaveText('App core connected');
  await expect(page.getByRole('heading', { name: 'Set up the documentation service' })).toBeVisible();
  await expect(page.getByRole('note')).toContainText('Demo mode');

  // Events flow from main: the heartbeat number moves on.
  const first = await page.getByTestId('heartbeat').textContent();
  await expect(page.getByTestId('heartbeat')).not.toHaveText(first ?? '', { timeout: 10_000 });

  await page.screenshot({ path: `e2e/artifacts/first-screen-${scribe.target}.png`, fullPage: true });
  // No CSP violation or script error on the way.
  expect(problems).toEqual([]);
});

test('a setting changed in the UI survives a restart of the app', async ({ scribe }) => {
  let page = scribe.page;
  await page.getByLabel('A documentation service at this address').check();
  await page.getByLabel('Service URL').fill('http://scribe.example.org');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/^Service URL must be a full https:\/\/ address/)).toBeVisible();
  await expect(page.getByLabel('Service URL')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Service URL').fill('https://scribe.example.org');
  await page.getByLabel('Partner ID').fill('clinic7');
  await page.getByLabel('Sign-in model').selectOption('single_auth_token');
  // The microphone's processing is off by default (the service wants the room as it is).
  await expect(page.getByLabel('Echo cancellation')).not.toBeChecked();
  await page.getByLabel('Noise suppression').check();
  await page.getByRole('button', { name: 'Save' }).click();
  // First run done: the app goes to the visit screen. Not the demo any more: the banner goes.
  await expect(page.getByRole('heading', { name: 'Visit' })).toBeVisible();
  await expect(page.getByRole('note')).toHaveCount(0);

  page = await scribe.restart();

  // A returning clinician lands on the visit screen; the settings are one click away.
  await expect(page.getByTestId('link-state')).toHaveText('App core connected');
  await expect(page.getByRole('heading', { name: 'Visit' })).toBeVisible();
  await page.getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('Service URL')).toHaveValue('https://scribe.example.org');
  await expect(page.getByLabel('Partner ID')).toHaveValue('clinic7');
  await expect(page.getByLabel('Sign-in model')).toHaveValue('single_auth_token');
  await expect(page.getByLabel('Noise suppression')).toBeChecked();
  await expect(page.getByLabel('Echo cancellation')).not.toBeChecked();
});
