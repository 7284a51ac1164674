import { expect, test } from './support/fixtures';
import { tryTheDemo, untilRecorded } from './support/workspace';

/**
 * The microphone as the clinician handles it, with Chromium's fake capture device playing the
 * committed conversation: another microphone chosen mid-recording (and found again after a
 * restart), and Pause, Resume and Discard with the window title saying which. (The chunks
 * themselves are judged against the source in capture.spec.ts.)
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

test('the chosen microphone is used at once and remembered across a restart', async ({ scribe }) => {
  let { page } = scribe;
  await tryTheDemo(page);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);

  // Once the microphone is open its name is known; pick another one mid-recording.
  const picker = page.getByLabel('Microphone', { exact: true });
  const options = picker.locator('option');
  await expect.poll(() => options.count()).toBeGreaterThan(2);
  const names = await options.allTextContents();
  const other = names.find((name) => name !== 'System default' && !name.startsWith('Microphone '))!;
  const current = (await page.getByTestId('microphone-name').textContent()) ?? '';
  const target = current.includes(names[1]!) ? names[2]! : other;
  await picker.selectOption({ label: target });
  await expect(page.getByTestId('microphone-name')).toContainText(target);
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
  await page.getByRole('button', { name: 'End visit' }).click();

  // A restart of browser mode listens on a new port, a new origin to which Chromium gives every
  // device a new id: the remembered microphone is found again by its name.
  page = await scribe.restart();
  await expect(page.getByLabel('Microphone', { exact: true }).locator('option:checked')).toHaveText(target);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('microphone-name')).toContainText(target);
});

test('a recording can be paused, resumed and discarded, and says so in the window title', async ({
  scribe,
}) => {
  const { page } = scribe;
  await tryTheDemo(page);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
  // The title says the state; it counts whole minutes, not the seconds the window shows.
  await expect(page).toHaveTitle('● Recording — Ambient Scribe');
  await untilRecorded(page, 1, 10_000);
  expect(await page.title()).toBe('● Recording — Ambient Scribe');

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveAttribute('data-state', 'paused');
  await expect(page).toHaveTitle('● Paused — Ambient Scribe');
  // The pause's own clock counts (on a busy machine the once-a-second view can skip a second).
  await expect(page.getByTestId('paused-for')).toHaveText(/^Paused for 0:0[1-9]$/, { timeout: 5_000 });
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByTestId('recorder-state')).not.toHaveAttribute('data-state', 'paused');
  await expect(page).toHaveTitle('● Recording — Ambient Scribe');

  // Discarding asks first; "Keep recording" changes nothing.
  await page.getByRole('button', { name: 'Cancel…' }).click();
  await page.getByRole('button', { name: 'Keep recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
  await page.getByRole('button', { name: 'Cancel…' }).click();
  await expect(page.getByRole('group', { name: 'Discard this visit?' })).toContainText(
    'Nothing of it will be kept',
  );
  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText('Visit discarded');
  await expect(page).toHaveTitle('Ambient Scribe');
  await expect(page.getByRole('button', { name: 'Start recording' })).toBeEnabled();
});
