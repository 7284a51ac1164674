import { expect, test } from './support/fixtures';

/**
 * Issue 7's fault 4, from the clinician's side: the app is killed (SIGKILL) mid-recording and
 * started again on the same data directory; History offers the interrupted visit, Finish sends the
 * rest of its audio from the encrypted spool, and the note comes as after End.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

test('a visit survives the app being killed mid-recording: Finish in History makes its note', async ({
  scribe,
}) => {
  test.setTimeout(150_000);
  let { page } = scribe;
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByLabel('Encounter ID').fill('bed7visit1');
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
  // The first three turns (about 12 s) are captured, then the app dies.
  await expect(page.getByTestId('elapsed')).toHaveText('0:12', { timeout: 30_000 });
  page = await scribe.crash();

  const row = page.getByTestId('history').getByRole('row', { name: /bed7visit1/ });
  await expect(row).toContainText('Interrupted');
  await row.getByRole('button', { name: 'Finish bed7visit1' }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
  await expect(page.getByTestId('transcript').getByRole('listitem').first()).toContainText('0:0');
  await expect(row).toContainText('Note ready');
  await page.screenshot({ path: `e2e/artifacts/interrupted-visit-${scribe.target}.png`, fullPage: true });
});
