import type { Page } from '@playwright/test';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess } from '../sandbox/test-support/sandbox-process';
import { expectAccessibleInBothThemes } from './support/axe';
import { startHostProcess } from './support/browser-host-process';
import { expect, test } from './support/fixtures';
import {
  choosePin,
  openSettings,
  saveAndGoBack,
  tryTheDemo,
  unlockWithPin,
  untilRecorded,
} from './support/workspace';

/**
 * Issue 29: the note is the clinician's work product. They fix it in the app, copy exactly what
 * they fixed, and mark the visit finished once it is in the EHR; no edit is lost by a reload or a
 * kill -9, none is ever in the clear on disk, and none stays once the visit is finished.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });
test.skip(({ target }) => target !== 'browser', 'browser mode is killed with SIGKILL and started again here');

const FIRST_EDIT = ['Left knee pain for three days.', 'Worse on stairs; no fall.'];
const SECOND_EDIT = ['Ibuprofen 400 mg three times a day.', 'Review in one week.'];

/** Every file under the data directory, as bytes: an edited word must be in none of them. */
async function filesHolding(dataDir: string, words: readonly string[]): Promise<string[]> {
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    const bytes = await readFile(path);
    for (const word of words) if (bytes.includes(Buffer.from(word))) found.push(`${path}: ${word}`);
  }
  return found;
}

const section = (page: Page, index: number) => page.getByTestId('note-section').nth(index);

async function openVisitFromRail(page: Page, encounterId: string): Promise<void> {
  await page
    .getByTestId('history')
    .getByRole('button', { name: `Open ${encounterId}` })
    .click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 30_000 });
}

test('edits survive a reload and a kill -9, Copy gives them, Undo restores the service’s text, and Finished leaves nothing on disk', async ({
  scribe,
}) => {
  test.setTimeout(180_000);
  let page = scribe.page;
  await page.setViewportSize({ width: 1366, height: 768 });
  await tryTheDemo(page);
  await page.getByLabel('Encounter ID').fill('edit1');
  await page.getByRole('button', { name: 'Start recording' }).click();
  await untilRecorded(page, 14, 30_000);
  await page.getByRole('button', { name: /End visit/ }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
  await expect(page.getByTestId('notes-to-finish')).toHaveText('1 note to finish');

  const firstTitle = (await section(page, 0).getByRole('heading').textContent())!.trim();
  const secondTitle = (await section(page, 1).getByRole('heading').textContent())!.trim();
  const serviceFirst = (await section(page, 0).getByTestId('section-text').textContent())!.trim();

  // The first section from the keyboard: Edit, type two lines over it, Ctrl+Enter keeps them.
  await section(page, 0)
    .getByRole('button', { name: `Edit ${firstTitle}` })
    .focus();
  await page.keyboard.press('Enter');
  const editor = section(page, 0).getByTestId('section-editor');
  await expect(editor).toBeFocused();
  // The section being edited and its controls stay in view at 1366×768.
  await expect(editor).toBeInViewport();
  await expect(section(page, 0).getByRole('button', { name: /^Done/ })).toBeInViewport();
  await page.screenshot({ path: 'e2e/artifacts/note-editing.png' });
  await expectAccessibleInBothThemes(page, 'a note section being edited');
  await editor.fill(FIRST_EDIT.join('\n'));
  await page.keyboard.press('Control+Enter');
  await expect(section(page, 0).getByTestId('edited-badge')).toHaveText('Edited');
  // Escape drops what was typed since the section opened.
  await section(page, 0)
    .getByRole('button', { name: `Edit ${firstTitle}` })
    .click();
  await section(page, 0).getByTestId('section-editor').fill('Typed, then thought better of it.');
  await page.keyboard.press('Escape');
  await expect(section(page, 0).getByTestId('section-text')).toHaveText(FIRST_EDIT.join('\n'));

  // The second with the mouse: a click on its text opens it; leaving it keeps the text.
  await section(page, 1).getByTestId('section-text').click();
  await section(page, 1).getByTestId('section-editor').fill(SECOND_EDIT.join('\n'));
  await page.getByTestId('results-heading').click();
  await expect(section(page, 1).getByTestId('edited-badge')).toBeVisible();
  await expectAccessibleInBothThemes(page, 'an edited note');
  // Main has the edits within a second of the last keystroke.
  await page.waitForTimeout(1_000);

  // A reload, then a kill -9 and a new start on the same data directory: the edits are there.
  await page.reload();
  await openVisitFromRail(page, 'edit1');
  await expect(section(page, 0).getByTestId('section-text')).toHaveText(FIRST_EDIT.join('\n'));
  page = await scribe.crash();
  await openVisitFromRail(page, 'edit1');
  await expect(section(page, 0).getByTestId('section-text')).toHaveText(FIRST_EDIT.join('\n'));
  await expect(section(page, 1).getByTestId('section-text')).toHaveText(SECOND_EDIT.join('\n'));

  // Copy: the edited section alone; Copy all: every heading with the edited texts.
  await page
    .context()
    .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: scribe.host!.origin });
  await section(page, 0)
    .getByRole('button', { name: `Copy ${firstTitle}` })
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(FIRST_EDIT.join('\n'));
  await page.getByRole('button', { name: 'Copy all of the note' }).click();
  const all = await page.evaluate(() => navigator.clipboard.readText());
  expect(all).toContain(`${firstTitle.replace('Edited', '')}\n${FIRST_EDIT.join('\n')}`);
  expect(all).toContain(`${secondTitle}\n${SECOND_EDIT.join('\n')}`);
  expect(all).not.toContain(serviceFirst);

  // Not one edited word in any file of the data directory: the edits are sealed.
  const words = [...FIRST_EDIT, ...SECOND_EDIT]
    .flatMap((line) => line.split(' '))
    .filter((w) => w.length >= 6);
  expect(await filesHolding(scribe.dataDir, ['three days', 'Ibuprofen', 'stairs', ...words])).toEqual([]);

  // The service's text beside it, then Undo my edits: the service's text again.
  await section(page, 0).getByRole('button', { name: 'Show the service’s text' }).click();
  await expect(section(page, 0).getByTestId('section-original')).toContainText(serviceFirst);
  await section(page, 0)
    .getByRole('button', { name: `Undo my edits of ${firstTitle}` })
    .click();
  await expect(section(page, 0).getByTestId('section-text')).toHaveText(serviceFirst);
  await expect(section(page, 0).getByTestId('edited-badge')).toHaveCount(0);

  // Finished: the count drops, and nothing of the edits is left on disk.
  await page.waitForTimeout(1_000);
  const notesDir = join(scribe.dataDir, 'notes');
  expect(await readdir(notesDir)).toHaveLength(1);
  await page.getByTestId('mark-finished').click();
  // The second section's edit names a dose, a frequency and a duration nobody said in this visit:
  // the check flags them (issue 38), and Finished asks once before it takes the note as it is.
  await page
    .getByRole('group', { name: 'Finish with values to check?' })
    .getByRole('button', { name: 'Finished anyway' })
    .click();
  await expect(page.getByTestId('finished-state')).toContainText('Finished');
  await expect(page.getByTestId('notes-to-finish')).toHaveCount(0);
  expect(await readdir(notesDir)).toEqual([]);
  await expect(page.getByTestId('history').getByRole('row', { name: /edit1/ })).toContainText(
    'Finished: in the EHR',
  );
});

test('another clinician signed in on the same laptop sees none of the first one’s edits or notes to finish', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const dir = await mkdtemp(join(tmpdir(), 'scribe-second-clinician-'));
  const sandbox = await startSandboxProcess({
    dataDir: join(dir, 'sandbox'),
    timeScale: 0.25,
    asr: 'energy',
  });
  const policyFile = join(dir, 'policy.json');
  await writeFile(
    policyFile,
    JSON.stringify({
      serviceUrl: sandbox.url,
      partnerId: 'demo-bearer',
      authModel: 'bearer',
      partnerToken: 'sandbox-bearer-partner-token',
      providerId: 'dr-first',
      demoAllowed: false,
    }),
  );
  const host = await startHostProcess(join(dir, 'data'), ['--policy', policyFile]);
  try {
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
    await page.context().grantPermissions(['microphone']);
    await page.goto(host.launchUrl);
    await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as dr-first', {
      timeout: 20_000,
    });
    await choosePin(page, '1111');
    await page.getByLabel('Encounter ID').fill('first1');
    await page.getByRole('button', { name: 'Start recording' }).click();
    await untilRecorded(page, 14, 30_000);
    await page.getByRole('button', { name: /End visit/ }).click();
    await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
    await section(page, 0).getByTestId('section-text').click();
    await section(page, 0).getByTestId('section-editor').fill('Only dr-first wrote this.');
    await page.getByTestId('results-heading').click();
    await page.waitForTimeout(1_000);
    await expect(page.getByTestId('notes-to-finish')).toHaveText('1 note to finish');

    // The second clinician signs in on the same laptop.
    await openSettings(page, 'Service (for IT)');
    await page.getByLabel('Provider ID').fill('dr-second');
    await saveAndGoBack(page);
    await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as dr-second', {
      timeout: 20_000,
    });
    await choosePin(page, '2222');
    await expect(page.getByTestId('history').getByRole('row', { name: /first1/ })).toHaveCount(0);
    await expect(page.getByTestId('notes-to-finish')).toHaveCount(0);
    await expect(page.getByText('Only dr-first wrote this.')).toHaveCount(0);

    // Back as the first: the visit and the edit are theirs again.
    await openSettings(page, 'Service (for IT)');
    await page.getByLabel('Provider ID').fill('dr-first');
    await page.getByRole('button', { name: 'Save' }).click();
    // dr-first's window again, locked at once: only dr-first's PIN opens it; dr-second's opens nothing.
    await expect(page.getByTestId('lock-screen')).toContainText('Only dr-first can open it again.');
    await unlockWithPin(page, '2222');
    await expect(page.getByRole('alert')).toHaveText('That PIN is not right. 9 tries left.');
    await expect(page.getByText('Only dr-first wrote this.')).toHaveCount(0);
    await unlockWithPin(page, '1111');
    // Back where the lock found the window: Settings, saved.
    await page.getByRole('button', { name: 'Back to the visit' }).click();
    await expect(page.getByTestId('sign-in-state')).toContainText('Signed in as dr-first', {
      timeout: 20_000,
    });
    await openVisitFromRail(page, 'first1');
    await expect(section(page, 0).getByTestId('section-text')).toHaveText('Only dr-first wrote this.');
  } finally {
    await host.stop();
    await sandbox.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
