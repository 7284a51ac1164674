import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectAccessibleInBothThemes } from './support/axe';
import { expect, startVisit, test, useExternalService } from './support/external-service';
import { tabTo } from './support/keyboard';
import { openSettings, saveAndGoBack, untilRecorded } from './support/workspace';
import type { SandboxProcess } from '../sandbox/test-support/sandbox-process';

/**
 * Issue 38, the check in the window: the sandbox, as its own process, writes the visit's note with
 * a dose nobody said injected into it (its control API's alter_note), as an AI scribe invents one.
 * The window marks exactly that value, and only it; its section and the note say "1 to check";
 * opened, it shows what the lines said; Checked takes it off the count and is kept over a reload;
 * an edit back to what was said takes the flag away; Copy never carries a mark. Finished with the
 * flag left asks once (the default) or is refused (checksBeforeFinish required). The whole path
 * (the flag, Play, Checked, the edit, Finished) is walked with the keyboard alone, and a Play under
 * the flag that finds its recording cut short says so under the flag. With ACK and without: the
 * check reads the note, whatever the stream did.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });
test.skip(({ target }) => target !== 'browser', 'the clipboard is granted to browser mode’s origin');

/** The injected error: a dose in the physical exam, next to what the clinician did say there. */
// "Your blood pressure is one hundred twenty over eighty": the physical exam's sentence. Not the
// earlier "Let me check your blood pressure", which a recognizer hearing a starved capture (half
// speed) can word so that the note puts it in another section.
const SAID = 'blood pressure is';
const INJECTED = 'blood pressure, metformin 1000 mg, is';
const FLAG = 'Check: 1000 mg: not in what was said';

const physicalExam = (page: Page) =>
  page.getByTestId('note-section').filter({ has: page.getByRole('heading', { name: /^Physical exam/ }) });
const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

async function visitWithAnInjectedDose(
  page: Page,
  sandbox: SandboxProcess,
  encounterId: string,
  beforeStart?: () => Promise<void>,
): Promise<void> {
  await useExternalService(page, sandbox.url, 'dr-check');
  await beforeStart?.();
  await startVisit(page, encounterId);
  const { id } = await sandbox.sessionOf(encounterId);
  await sandbox.faults({ action: 'alter_note', session_id: id, find: SAID, replace: INJECTED });
  // "Your blood pressure is one hundred twenty over eighty, …" ends at 0:32 of the conversation.
  await untilRecorded(page, 34, 60_000);
  await page.getByRole('button', { name: 'End visit' }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
}

/** Finished pressed with the flag left: asked once, naming the count, or refused (checksBeforeFinish). */
async function finishedWithTheFlagLeft(page: Page, checks: 'ask' | 'required'): Promise<void> {
  const mark = page.getByRole('button', { name: FLAG });
  await tabTo(page, page.getByTestId('mark-finished'), { backward: true });
  await page.keyboard.press('Enter');
  if (checks === 'ask') {
    const ask = page.getByRole('group', { name: 'Finish with values to check?' });
    await expect(ask).toContainText('1 value is still to check.');
    await expect(ask.getByRole('button', { name: 'Finished anyway' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(ask).toHaveCount(0);
  } else {
    await expect(page.getByTestId('finish-refused')).toHaveText(
      '1 value is still to check: edit it to what was said, or mark it Checked.',
    );
  }
  // Either way the keyboard is on the value, and the visit is not finished.
  await expect(mark).toBeFocused();
  await expect(page.getByTestId('finished-state')).toHaveCount(0);
}

/** Takes the recording's audio off the disk, as a damaged or restored data directory can: its manifest stays. */
function removeTheRecordingsSegments(dataDir: string): void {
  const spool = join(dataDir, 'spool');
  const segments = readdirSync(spool).flatMap((visit) =>
    readdirSync(join(spool, visit))
      .filter((name) => name.endsWith('.spool'))
      .map((name) => join(spool, visit, name)),
  );
  expect(segments.length).toBeGreaterThan(0);
  for (const segment of segments) rmSync(segment);
}

async function theInjectedDoseIsFlagged(
  page: Page,
  origin: string,
  dataDir: string,
  checks: 'ask' | 'required',
): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 768 });
  // Exactly one flag in the whole note: the injected dose, named by what it says and what was said.
  const marks = page.getByRole('button', { name: /^Check: / });
  await expect(marks).toHaveCount(1);
  await expect(marks).toHaveAccessibleName(FLAG);
  await expect(physicalExam(page).getByRole('button', { name: FLAG })).toHaveText('1000 mg');
  await expect(physicalExam(page).getByTestId('check-count')).toHaveText('1 to check');
  await expect(page.getByTestId('check-total')).toHaveText('1 to check');
  await expectAccessibleInBothThemes(page, 'results: a note with a flag');

  // Copy gives the text as written, never a mark.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await physicalExam(page).getByRole('button', { name: /^Copy/ }).click();
  const copied = await clipboard(page);
  expect(copied).toContain('metformin 1000 mg');
  expect(copied).not.toMatch(/Check|to check/);

  await finishedWithTheFlagLeft(page, checks);

  // From the keyboard: the mark opens what was said; Checked takes it off the count.
  await expect(marks).toBeFocused();
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('check-panel');
  await expect(panel).toContainText('The note says 1000 mg; the lines it comes from do not say it.');
  await expect(panel.getByRole('list', { name: 'What was said' })).toContainText(SAID);
  await expect(panel.getByRole('button', { name: 'Checked' })).toBeFocused();
  // Play on a line it was checked against, from the keyboard (issue 38's whole path): Space plays
  // the moment, and again pauses it; then back to Checked.
  await page.keyboard.press('Shift+Tab');
  const play = panel.getByTestId('play-line').last();
  await expect(play).toBeFocused();
  await expect(play).toHaveAccessibleName(/^Play (\S+ )?\d+:\d{2}$/);
  await page.keyboard.press('Space');
  await expect(play).toHaveAttribute('data-state', 'playing');
  await page.keyboard.press('Space');
  await expect(play).toHaveAttribute('data-state', 'paused');
  await expect(page.getByTestId('replay-problem')).toHaveText('');
  await page.keyboard.press('Tab');
  await expect(panel.getByRole('button', { name: 'Checked' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(panel.getByRole('button', { name: 'Checked' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('check-total')).toHaveCount(0);
  await expect(physicalExam(page).getByTestId('check-count')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Checked: 1000 mg' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Checked: 1000 mg' })).toBeFocused();

  // Kept sealed with the edits: still checked after a reload.
  // Main has the marks within a second of the press, as it has edits.
  await page.waitForTimeout(1_000);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Checked: 1000 mg' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('check-total')).toHaveCount(0);

  // Not checked after all, from the keyboard: back on the count.
  const checkedMark = page.getByRole('button', { name: 'Checked: 1000 mg' });
  await tabTo(page, checkedMark, { max: 120 });
  await page.keyboard.press('Enter');
  const reopened = page.getByTestId('check-panel');
  await expect(reopened.getByRole('button', { name: 'Checked' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('check-total')).toHaveText('1 to check');

  // The recording's audio gone from the disk: Play under the flag plays nothing and says why there,
  // beside the lines, not in the transcript's bar; the note and Finished go on.
  removeTheRecordingsSegments(dataDir);
  await page.keyboard.press('Shift+Tab');
  const playAgain = reopened.getByTestId('play-line').last();
  await expect(playAgain).toBeFocused();
  await page.keyboard.press('Space');
  await expect(reopened.getByTestId('check-replay-problem')).toHaveText(
    'Part of this recording is missing on this computer, so it cannot be played.',
  );
  await expect(playAgain).toHaveAttribute('data-state', 'idle');
  await expect(page.getByTestId('replay-problem')).toHaveText('');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: FLAG })).toBeFocused();

  // The value edited to what was said, from the keyboard: no flag.
  await tabTo(page, physicalExam(page).getByRole('button', { name: 'Edit Physical exam' }), {
    backward: true,
  });
  await page.keyboard.press('Enter');
  const editor = physicalExam(page).getByTestId('section-editor');
  await expect(editor).toBeFocused();
  const edited = (await editor.inputValue()).replace(INJECTED, SAID);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(edited);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByRole('button', { name: /^Check(ed)?: / })).toHaveCount(0);
  await expect(page.getByTestId('check-total')).toHaveCount(0);
  await expect(physicalExam(page)).toContainText(`${SAID}`);
  // Nothing left to check: Finished, from the keyboard, finishes at once.
  await tabTo(page, page.getByTestId('mark-finished'), { backward: true });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('finished-state')).toContainText('Finished');
}

test('a note with a dose nobody said: exactly that flag, what was said beside it, Checked, and an edit that clears it', async ({
  scribe,
  sandbox,
}) => {
  test.setTimeout(180_000);
  await visitWithAnInjectedDose(scribe.page, sandbox, 'check1');
  await theInjectedDoseIsFlagged(scribe.page, scribe.host!.origin, scribe.dataDir, 'ask');
});

test.describe('a service without ACK', () => {
  test.use({ sandboxOptions: { timeScale: 0.25, asr: 'auto', ack: false } });

  test('the same flag on the note of a service without ACK; the checks required before Finished', async ({
    scribe,
    sandbox,
  }) => {
    test.setTimeout(180_000);
    const { page } = scribe;
    await visitWithAnInjectedDose(page, sandbox, 'check2', async () => {
      await openSettings(page, 'Recording and display');
      await page
        .getByLabel('Values to check before Finished')
        .selectOption({ label: 'Finished waits until each is edited or marked Checked' });
      await saveAndGoBack(page);
    });
    await theInjectedDoseIsFlagged(page, scribe.host!.origin, scribe.dataDir, 'required');
  });
});
