import { readConversation } from './support/audio-analysis';
import { expectAccessibleInBothThemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { tryTheDemo, untilRecorded } from './support/workspace';

/**
 * The path a clinician takes on the first day, in the real app with Chromium's fake microphone
 * playing the committed conversation: the first run's one click (Try the demo, which signs in by
 * itself), the visit's details with a date of birth as people type it and a form, the recording
 * (auto-pause in the long silence, back at speech), End by keyboard, then the note with its
 * patient, the transcript and the filled form, and a section copied for the EHR. (A standard
 * partner's sign-in at its identity provider: e2e/sign-in.spec.ts.)
 */
const WAV = 'e2e/fixtures/conversation.wav';
const conversation = readConversation(WAV, 'e2e/fixtures/conversation.turns.json');

test.use({ fakeMicrophone: WAV });

test('from first launch to a note with a filled form, without reading anything', async ({ scribe }) => {
  test.setTimeout(180_000);
  const { page } = scribe;
  // One click: the demo signs in by itself.
  await tryTheDemo(page);
  await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as demo-clinician');

  // The visit's details: the encounter id is checked as it is typed, and taken as the EHR prints
  // it (issue 31): its letters and digits are what is sent, and the screen says so.
  const encounterId = page.getByLabel('Encounter ID');
  await expect(encounterId).toHaveValue(/^demo\d{14}$/);
  await encounterId.fill('-- --');
  await expect(page.getByText('Encounter ID must have at least one letter or digit')).toBeVisible();
  await expect(encounterId).toHaveAttribute('aria-invalid', 'true');
  await encounterId.fill('bed 12 visit 3');
  await expect(encounterId).toHaveAttribute('aria-invalid', 'false');
  await expect(
    page.getByText('Sent as bed12visit3: the service takes letters and digits only'),
  ).toBeVisible();
  // Typed as people write it; shown in words as understood before the visit starts.
  await page.getByLabel('Date of birth').fill('9 Apr 1961');
  await expect(page.getByText(/^Understood as (9 April 1961|April 9, 1961)$/)).toBeVisible();
  await page.getByLabel('Sex').selectOption({ label: 'Female' });
  await page.getByText('Note and forms').click();
  // A named template: its sections, no checklist to work through.
  await page.getByLabel('Note template').selectOption({ label: 'SOAP' });
  await expect(page.getByRole('checkbox', { name: 'Plan', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Add a service form…' }).click();
  await page.getByLabel('Service form').selectOption({ label: 'Vital signs' });
  await page.getByRole('button', { name: 'Add form', exact: true }).click();
  await expect(page.getByText('Vital signs (service form)')).toBeVisible();
  await page.screenshot({ path: `e2e/artifacts/visit-${scribe.target}.png`, fullPage: true });

  await page.getByRole('button', { name: 'Start recording' }).click();
  const state = page.getByTestId('recorder-state');
  await expect(state).toHaveText(/^Recording/);
  await expect(page.getByTestId('encounter-id')).toHaveText('Encounter bed 12 visit 3');
  await expect(page.getByTestId('recording-patient')).toHaveText(
    /^Female · \d+ years · born (9 April 1961|April 9, 1961)$/,
  );

  // The 8 s silence in the middle: the app pauses the service while nobody speaks, says so, and
  // goes back to recording when the next turn starts.
  const silenceEndS = conversation.longSilence.endMs / 1_000;
  await expect(state).toHaveAttribute('data-state', 'auto-paused', { timeout: 40_000 });
  await expect(state).toContainText('paused while nobody speaks');
  await expectAccessibleInBothThemes(page, 'auto-paused');
  await expect(state).toHaveAttribute('data-state', 'streaming', { timeout: 15_000 });
  const resumedAtS = Number((await page.getByTestId('elapsed').textContent())?.split(':')[1]);
  expect(resumedAtS).toBeGreaterThanOrEqual(silenceEndS - 1);

  // After the last turn, End from the keyboard, as the button shows.
  const lastTurnEndS = conversation.turns.at(-1)!.endMs / 1_000;
  await untilRecorded(page, Math.ceil(lastTurnEndS + 1), 30_000);
  await expect(page.getByRole('button', { name: /End visit/ })).toHaveAttribute(
    'aria-keyshortcuts',
    'Control+Shift+Enter',
  );
  await page.keyboard.press('Control+Shift+Enter');

  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
  // SOAP as clinicians read it (issue 31): the service's sections under S, O, A and P.
  await expect(page.locator('.note-heading')).toHaveText(['Subjective', 'Objective', 'Assessment', 'Plan']);
  await expect(page.locator('.note-section h5')).toHaveText([
    'Chief complaint',
    'History of present illness',
  ]);
  await expect(page.getByTestId('transcript').getByRole('listitem').first()).toContainText('0:0');
  // Every line's time is on the visit's clock, during a turn of the conversation: the auto-paused
  // silence was not sent, and the service's own times after it would fall inside the silence.
  const times = (await page.getByTestId('transcript').locator('time').allTextContents()).map((text) => {
    const [m, s] = text.split(':').map(Number);
    return m! * 60 + s!;
  });
  expect(times.some((t) => t >= silenceEndS)).toBe(true);
  for (const t of times)
    expect(
      conversation.turns.some((turn) => t >= turn.startMs / 1_000 - 1.5 && t <= turn.endMs / 1_000 + 1.5),
      `a transcript line at ${t} s lies in a turn of the conversation`,
    ).toBe(true);
  // The form was filled from the same recording; it has its own tab beside the note.
  await page.getByRole('tab', { name: 'Forms (1)' }).click();
  const vitals = page.getByTestId('form-VITALS_ASSESSMENT');
  await expect(vitals.locator('caption')).toHaveText('Vital signs');
  // "Your blood pressure is one hundred twenty over eighty, and your heart rate is seventy two."
  await expect(vitals.getByRole('row', { name: /Blood pressure/ })).toContainText('120/80');
  await expect(vitals.getByRole('row', { name: /Heart rate/ })).toContainText('72');
  // The note says which visit it belongs to.
  await expect(page.getByTestId('results-heading')).toHaveText('Encounter bed 12 visit 3');
  await expect(page.getByTestId('note-patient')).toHaveText(/^Female · \d+ years · born /);
  await page.screenshot({ path: `e2e/artifacts/visit-results-${scribe.target}.png`, fullPage: true });
  await expectAccessibleInBothThemes(page, 'results: the forms tab, feedback folded');
  await page.getByRole('tab', { name: 'Note' }).click();

  // Copy puts the section's plain text on the clipboard, ready for the EHR field.
  await page
    .context()
    .grantPermissions(
      ['clipboard-read', 'clipboard-write'],
      scribe.host ? { origin: scribe.host.origin } : {},
    );
  const plan = page
    .locator('.note-section')
    .filter({ has: page.getByRole('heading', { name: 'Plan', exact: true }) });
  await plan.getByRole('button', { name: 'Copy Plan' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  // The text alone: the EHR field already has the label.
  expect(copied).toBe((await plan.locator('p').first().textContent())?.trim());
  expect(copied.length).toBeGreaterThan(10);

  // The next visit is its own action: a new encounter id, no patient details.
  await page.getByRole('button', { name: 'New visit' }).click();
  await expect(page.getByLabel('Encounter ID')).toHaveValue(/^demo\d{14}$/);
  await expect(page.getByLabel('Date of birth')).toHaveValue('');
});
