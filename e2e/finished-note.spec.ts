import type { Page } from '@playwright/test';
import { expectAccessibleInBothThemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { recordVisit, tryTheDemo } from './support/workspace';

/**
 * Issue 37, finding 3: a note edited, marked Finished (it is in the EHR) and opened again past Undo
 * showed the service's original text under "✓ Finished", and Copy all copied it: pasted again, the
 * wrong note. Now the pane says the note is in the EHR and since when; the original is only behind
 * "Show the service's original", labelled as such, with no Copy or Copy all.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

const section = (page: Page, index: number) => page.getByTestId('note-section').nth(index);

test('a finished note past Undo: “in the EHR since …”, the service’s original behind its own label, nothing to copy', async ({
  scribe,
}) => {
  test.setTimeout(150_000);
  const { page } = scribe;
  await page.setViewportSize({ width: 1366, height: 768 });
  await tryTheDemo(page);
  await recordVisit(page, 'sealed1', 10);

  // The clinician fixes the first section, as it then goes into the EHR.
  const title = (await section(page, 0).getByRole('heading').textContent())!.trim();
  const original = (await section(page, 0).getByTestId('section-text').textContent())!.trim();
  await section(page, 0)
    .getByRole('button', { name: `Edit ${title}` })
    .click();
  await section(page, 0).getByTestId('section-editor').fill('Left knee pain for three days.');
  await page.keyboard.press('Control+Enter');
  await page.getByTestId('mark-finished').click();
  // Nobody said "left" or "three days" in this visit: the check flags them (issue 38), and
  // Finished asks once before it takes the note as it is.
  await page
    .getByRole('group', { name: 'Finish with values to check?' })
    .getByRole('button', { name: 'Finished anyway' })
    .click();
  // Within Undo's window the note is as it was: Undo can still bring the edits back.
  await expect(page.getByTestId('finished-state')).toContainText('Finished');
  await expect(page.getByRole('button', { name: 'Copy all of the note' })).toBeVisible();

  // Past it, the pane no longer shows the service's text as the note.
  const inEhr = page.getByTestId('note-in-ehr');
  await expect(inEhr).toBeVisible({ timeout: 20_000 });
  const year = String(new Date().getFullYear());
  await expect(inEhr).toContainText(`In the EHR since`);
  await expect(inEhr).toContainText(year);
  await expect(page.getByRole('button', { name: 'Copy all of the note' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Copy / })).toHaveCount(0);
  await expect(page.getByTestId('note-section')).toHaveCount(0);
  const behind = page.getByTestId('service-original');
  await expect(behind.getByText(original.split('\n')[0]!, { exact: false })).toBeHidden();

  // Opened again from the rail, the same.
  await page.getByRole('button', { name: 'New visit' }).click();
  await page.getByTestId('history').getByRole('button', { name: 'Open sealed1' }).click();
  await expect(page.getByTestId('note-in-ehr')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Copy all of the note' })).toHaveCount(0);

  // Asked for, the original shows, labelled as the service's and not what the EHR has.
  await page.getByText('Show the service’s original').click();
  await expect(page.getByTestId('service-original')).toContainText(
    'The service’s original note, before your edits: not what went into the EHR.',
  );
  await expect(page.getByTestId('service-original')).toContainText(original.split('\n')[0]!);
  await expect(page.getByTestId('service-original').getByRole('button')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/artifacts/finished-note.png' });
  await expectAccessibleInBothThemes(page, 'a finished note, its original shown');
});
