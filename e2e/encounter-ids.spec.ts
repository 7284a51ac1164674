import { test as withSandbox, expect, startVisit, useExternalService } from './support/external-service';
import { test } from './support/fixtures';
import { tryTheDemo, untilRecorded } from './support/workspace';

/**
 * Issue 37, finding 9: a fresh visit was prefilled with a made-up "visit20261127224137", so a
 * rushed Start filed the visit under an ID the EHR never had. Outside the demo the encounter ID now
 * starts empty (a link or the clinician fills it); the demo keeps a made-up one, marked as its own.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

withSandbox(
  'a real service: the encounter ID starts empty, a Start without one is refused by name, and the next visit starts empty too',
  async ({ scribe, sandbox }) => {
    withSandbox.setTimeout(120_000);
    const { page } = scribe;
    await useExternalService(page, sandbox.url, 'dr-fresh');
    const id = page.getByLabel('Encounter ID');
    await expect(id).toHaveValue('');
    // Nothing is named wrong before Start: an empty field is where every visit begins.
    await expect(page.getByTestId('visit-details-problem')).toHaveCount(0);

    await page.getByRole('button', { name: 'Start recording' }).click();
    await expect(page.getByTestId('visit-details-problem')).toHaveText(
      'Check the visit details: Encounter ID is needed: type or paste it as in your EHR.',
    );
    await expect(id).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('elapsed')).toHaveCount(0);
    const listed = async () =>
      ((await (await fetch(`${sandbox.url}/__sandbox/sessions`)).json()) as { sessions: unknown[] }).sessions;
    expect(await listed(), 'no visit at the service').toEqual([]);

    await id.fill('ENC-2024-00871');
    await expect(page.getByTestId('visit-details-problem')).toHaveCount(0);
    await page.getByRole('button', { name: 'Start recording' }).click();
    await untilRecorded(page, 2, 15_000);
    await page.getByRole('button', { name: /End visit/ }).click();
    await expect(page.getByTestId('results-heading')).toBeVisible();
    await page.getByRole('button', { name: 'New visit' }).click();
    await expect(page.getByLabel('Encounter ID')).toHaveValue('');
  },
);

test('the demo keeps a made-up encounter ID, marked as the demo’s, and Start works without typing', async ({
  scribe,
}) => {
  const { page } = scribe;
  await tryTheDemo(page);
  await expect(page.getByLabel('Encounter ID')).toHaveValue(/^demo\d{14}$/);
  await expect(
    page.getByText('Made up for the demo. A real visit takes the ID your EHR shows.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('encounter-id')).toHaveText(/^Encounter demo\d{14}$/);
  // Once typed, the ID is the clinician's: the demo's mark goes with it.
  await page.getByRole('button', { name: /End visit/ }).click();
  await page.getByRole('button', { name: 'New visit' }).click();
  await page.getByLabel('Encounter ID').fill('bed 12');
  await expect(page.getByText('Made up for the demo.', { exact: false })).toHaveCount(0);
});

withSandbox(
  'the rail tells visits apart: each ID as the EHR prints it, a long one cut in the middle, the visit being recorded first under Now',
  async ({ scribe, sandbox }) => {
    withSandbox.setTimeout(150_000);
    const { page } = scribe;
    await page.setViewportSize({ width: 1366, height: 768 });
    await useExternalService(page, sandbox.url, 'dr-rail');
    const ids = ['ENC-2024-000-00871', 'ENC-2024-000-00872', 'ENC-2024-000-00873'];
    // Each with its note, so both stand under To finish, newest first (ended at once, one could
    // still be writing its note while the other had one, and the rail put them in two groups: the
    // test's timing).
    for (const id of ids.slice(0, 2)) {
      await startVisit(page, id);
      await untilRecorded(page, 4, 30_000);
      await page.getByRole('button', { name: /End visit/ }).click();
      await expect(page.getByTestId('results-heading')).toHaveText(`Encounter ${id}`);
      await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 60_000 });
    }
    await startVisit(page, ids[2]!);
    const rail = page.getByTestId('history');
    // The visit being recorded stands first, under Now; the others below.
    const groups = rail.getByRole('heading', { level: 3 });
    await expect(groups.first()).toHaveText('Now');
    await expect(rail.getByTestId('history-now').locator('.history-encounter')).toHaveText(['ENC-…00873']);
    const cells = rail.locator('.history-encounter');
    await expect(cells).toHaveText(['ENC-…00873', 'ENC-…00872', 'ENC-…00871']);
    // Each whole in its row: not cut again at its end by the row's own ellipsis.
    for (const cell of await cells.all())
      expect(await cell.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await expect(cells.first()).toHaveAttribute('title', 'ENC-2024-000-00873');
    // The service still got letters and digits only.
    const { sessions } = (await (await fetch(`${sandbox.url}/__sandbox/sessions`)).json()) as {
      sessions: { encounter_id: string }[];
    };
    expect(sessions.map((session) => session.encounter_id).sort()).toEqual(
      ids.map((id) => id.replace(/-/g, '')).sort(),
    );
    await rail.screenshot({ path: 'e2e/artifacts/rail-now-and-ids.png' });
    await page.getByRole('button', { name: /End visit/ }).click();
    await expect(rail.getByRole('button', { name: 'Open ENC-2024-000-00871' })).toBeVisible();
  },
);
