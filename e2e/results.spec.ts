import { expect, test } from './support/fixtures';
import { tryTheDemo, untilRecorded } from './support/workspace';

/**
 * The results screen in the real app: a visit recorded from the committed conversation through the
 * fake microphone, ended, and shown while the demo service works; then a note section lights its
 * source sentences in the transcript, and the note copies as plain text.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

test('after End: a timeline with the wait, then the note whose sections light their source sentences', async ({
  scribe,
}) => {
  test.setTimeout(120_000);
  const { page } = scribe;
  await tryTheDemo(page);
  await page.getByRole('button', { name: 'Start recording' }).click();
  // The first five turns (about 16 s of the conversation) make a note with several sections.
  await untilRecorded(page, 16, 40_000);
  await page.getByRole('button', { name: 'End visit' }).click();

  // While the service works: the steps, the time waited, and an indeterminate progress bar.
  const timeline = page.getByTestId('results-timeline');
  await expect(timeline.getByRole('listitem')).toHaveText([
    /^✓Visit ended/,
    /Sending the last audio/,
    /Service writing the note/,
    /Note ready \(not yet\)/,
  ]);
  await expect(timeline.getByRole('progressbar')).toHaveAttribute('aria-valuetext', /^\d+:\d{2} waited$/);
  await expect(page.getByTestId('results-elapsed')).toHaveText(/^\d+:\d{2}$/);

  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 60_000 });
  await expect(timeline).toHaveCount(0);

  // Show source lights the section's sentences, by mouse and by keyboard, and clears on a second press.
  const lit = page.getByTestId('transcript').locator('li[data-highlighted="true"]');
  const section = page
    .locator('.note-section')
    .filter({ has: page.getByRole('button', { name: /^Show source/ }) })
    .first();
  const show = section.getByRole('button', { name: /^Show source of / });
  await expect(show).toHaveAttribute('aria-pressed', 'false');
  await show.click();
  await expect(show).toHaveAttribute('aria-pressed', 'true');
  expect(await lit.count()).toBeGreaterThan(0);
  await expect(lit.first()).toBeInViewport();
  const title = (await section.getByRole('heading').textContent()) ?? '';
  await expect(page.getByRole('status').filter({ hasText: 'marked as the source of' })).toHaveText(
    new RegExp(`of the transcript marked as the source of ${title}\\.$`),
  );
  await page.screenshot({ path: `e2e/artifacts/results-${scribe.target}.png`, fullPage: true });
  await show.focus();
  await page.keyboard.press('Space');
  await expect(show).toHaveAttribute('aria-pressed', 'false');
  await expect(lit).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(show).toHaveAttribute('aria-pressed', 'true');

  // Copy all: every section with something in it, title then text, a blank line between sections;
  // a section the service found nothing for is not pasted into the EHR (issue 31).
  await page
    .context()
    .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: scribe.host?.origin });
  await page.getByRole('button', { name: 'Copy all of the note' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const titles = await page.locator('.note-section[data-empty="false"] h4').allTextContents();
  expect(titles.length).toBeGreaterThan(0);
  expect(copied.split('\n\n').map((part) => part.split('\n')[0])).toEqual(titles);
  expect(copied).not.toContain('Nothing relevant');

  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `e2e/artifacts/results-${scribe.target}-dark.png`, fullPage: true });
});
