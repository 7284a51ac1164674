import { contiguousFromZero } from './support/captured-audio';
import { expect, startVisit, test, useExternalService } from './support/external-service';
import { tryTheDemo, unlockWithPin, untilRecorded } from './support/workspace';

/**
 * Issue 7's fault 4, from the clinician's side: the app is killed (SIGKILL) mid-recording and
 * started again on the same data directory; History offers the interrupted visit, Finish sends the
 * rest of its audio from the encrypted spool, and the note comes as after End.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });
const CHUNK_BYTES = 3_200;

test('a visit survives the app being killed mid-recording: Finish in History makes its note', async ({
  scribe,
}) => {
  test.setTimeout(150_000);
  let { page } = scribe;
  await tryTheDemo(page);
  await page.getByLabel('Encounter ID').fill('bed7visit1');
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
  // The first three turns (about 12 s) are captured, then the app dies (and its built-in sandbox
  // with it: both come back on the same data directory).
  await untilRecorded(page, 12, 30_000);
  page = await scribe.crash();

  const row = page.getByTestId('history').getByRole('row', { name: /bed7visit1/ });
  await expect(row).toContainText('Interrupted');
  await row.getByRole('button', { name: 'Finish bed7visit1' }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
  await expect(page.getByTestId('transcript').getByRole('listitem').first()).toContainText('0:0');
  await expect(row).toContainText('Note ready');
  await page.screenshot({ path: `e2e/artifacts/interrupted-visit-${scribe.target}.png`, fullPage: true });
});

/**
 * The same kill, against a service that stays up (the sandbox as its own process), checked byte
 * for byte: what the service finally has is exactly the start of what the page sent, and it lacks
 * at most the one chunk that was on its way to the app when the app died.
 */
test('after the kill and Finish, the service has every chunk the app received, byte for byte', async ({
  scribe,
  sandbox,
  watched,
}) => {
  test.skip(
    scribe.target !== 'browser',
    'Electron carries chunks over IPC, which a test cannot read; browser mode runs the same renderer code.',
  );
  test.setTimeout(150_000);
  let { page } = scribe;
  const { audio } = watched;
  await useExternalService(page, sandbox.url);
  await startVisit(page, 'bed7visit2');
  const { id } = await sandbox.sessionOf('bed7visit2');
  await untilRecorded(page, 12, 30_000);
  const sentBeforeKill = audio.count;
  page = await scribe.crash();
  // dr-faults has a PIN here: the app starts locked for them (issue 29).
  await unlockWithPin(page, '2468');

  const row = page.getByTestId('history').getByRole('row', { name: /bed7visit2/ });
  await expect(row).toContainText('Interrupted');
  await row.getByRole('button', { name: 'Finish bed7visit2' }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
  await expect(page.getByTestId('transcript').getByRole('listitem').first()).toContainText('0:0');
  await expect(row).toContainText('Note ready');

  // What the page sent: chunks 0, 1, 2, … (those sent after the kill reached no one).
  expect(audio.seqs).toEqual(contiguousFromZero(audio.count));
  const session = await sandbox.session(id);
  expect(session.status).toBe('completed');
  expect(session.received_bytes % CHUNK_BYTES).toBe(0);
  const kept = session.received_bytes / CHUNK_BYTES;
  console.log(
    `app killed: page had sent ${sentBeforeKill} chunks before the kill (${audio.count} in all); ` +
      `the service has ${kept} (${sentBeforeKill - kept} short), ${session.connections} connections`,
  );
  // A byte-exact prefix of what the page sent: nothing reordered, repeated or altered.
  expect(kept).toBeLessThanOrEqual(audio.count);
  expect(session.pcm_sha256, 'SHA-256 of the service audio = that of the first chunks sent').toBe(
    audio.sha256(kept),
  );
  // Everything the app had received was spooled and delivered: at most the chunk in flight is lost.
  expect(kept, 'chunks the service has, of those sent before the kill').toBeGreaterThanOrEqual(
    sentBeforeKill - 1,
  );
  expect(session.connections).toBeGreaterThanOrEqual(2);
});
