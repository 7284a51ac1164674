import { FAKE_DEVICES_STARVE, keepBusy, loadLeavesFakeDevicesFed } from './support/busy-machine';
import { expect, startVisit, test, useExternalService, type Watched } from './support/external-service';
import type { SandboxProcess } from '../sandbox/test-support/sandbox-process';
import type { Page } from '@playwright/test';
import { secondsWithoutAudio, tryTheDemo, untilRecorded } from './support/workspace';

/**
 * Issue 37, finding 1, as a clinician meets it: a 2-core laptop busy with something else (two
 * processes spinning), the page reloads mid-visit, and End is pressed as soon as it shows on the
 * new page, while that page is still starting. The visit must carry on from where its clock was,
 * End must work on that first press, and every chunk the new page captured must reach the service.
 * Against the sandbox with ACK and without, and in the demo. It runs alone (playwright.config.ts,
 * the "alone" phase): its load is meant for the app.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });
test.skip(({ target }) => target !== 'browser', 'Browser mode can reload the page and read its chunks.');
test.skip(!loadLeavesFakeDevicesFed(), FAKE_DEVICES_STARVE);

/** The running time the window shows, in seconds. */
async function elapsedS(page: Page): Promise<number> {
  const text = (await page.getByTestId('elapsed').textContent()) ?? '';
  const [minutes, seconds] = text.trim().split(':').map(Number);
  return (minutes ?? 0) * 60 + (seconds ?? 0);
}

/** Reloads at 0:06 on a busy machine and presses End at its first sight; returns the times shown. */
async function reloadAndEndAtOnce(
  page: Page,
): Promise<{ before: number; after: number; endPressedAt: number }> {
  const busy = keepBusy(2);
  try {
    await untilRecorded(page, 6, 60_000);
    await page.reload();
    const end = page.getByRole('button', { name: /End visit/ });
    await expect(end).toBeVisible({ timeout: 15_000 });
    const after = await elapsedS(page);
    // One press, while the new page may still be opening its microphone.
    const endPressedAt = Date.now();
    await end.click();
    await expect(page.getByTestId('results-status')).toHaveText(/^(The note is ready|No note was made)\.$/, {
      timeout: 90_000,
    });
    return { before: 6, after, endPressedAt };
  } finally {
    busy.stop();
  }
}

async function expectEveryChunkAtTheService(
  page: Page,
  sandbox: SandboxProcess,
  encounter: string,
  watched: Watched,
  endPressedAt: number,
) {
  const session = await sandbox.sessionOf(encounter);
  expect(['completed', 'skipped']).toContain(session.status);
  const sent = watched.audio.chunks.reduce((bytes, chunk) => bytes + chunk.pcm.byteLength, 0);
  // Everything the pages handed the core reached the service; a chunk or two the old page sent
  // while unloading reach it too, unseen by DevTools (reload.spec.ts).
  expect(session.received_bytes, 'bytes at the service').toBeGreaterThanOrEqual(sent);
  expect(session.received_bytes - sent, 'unseen bytes sent while unloading').toBeLessThanOrEqual(2 * 3_200);
  // The new page's chunks, when it sent any, are among those (the byte counts above). On a busy
  // machine its microphone may open after End's first press (seen in a fresh-clone CI run): then
  // it captured nothing, and the visit's record says how long it went without audio, from the
  // old page's last chunk up to End, in whole seconds (under half a second shows none: seen when
  // End came at once after a burst of the old page's late chunks).
  const restart = watched.audio.chunks.findIndex((c, k) => k > 0 && c.seq === 0);
  if (restart < 0) {
    // Main counts to End's call, which comes a moment after the press on a busy machine.
    const gapS = (endPressedAt - watched.audio.chunks.at(-1)!.sentAt) / 1_000;
    const { line, seconds: missingS } = await secondsWithoutAudio(page);
    expect(
      missingS,
      `seconds without audio in "${line}", ${gapS.toFixed(2)} s from the last chunk to End`,
    ).toBeGreaterThanOrEqual(Math.round(gapS) - 1);
    expect(
      missingS,
      `seconds without audio in "${line}", ${gapS.toFixed(2)} s from the last chunk to End`,
    ).toBeLessThanOrEqual(Math.round(gapS) + 2);
  }
}

for (const ack of [true, false]) {
  test.describe(ack ? 'a service with ACK' : 'a service without ACK', () => {
    test.use({ sandboxOptions: { timeScale: 0.25, asr: 'auto', ack } });

    test('a reload on a busy machine: the clock goes on, End works on its first press, every chunk arrives', async ({
      scribe,
      sandbox,
      watched,
    }) => {
      test.setTimeout(240_000);
      const { page } = scribe;
      const encounter = ack ? 'busyack1' : 'busynoack1';
      await useExternalService(page, sandbox.url, 'dr-busy-reload');
      await startVisit(page, encounter);
      const times = await reloadAndEndAtOnce(page);
      expect(times.after, 'the running time after the reload (s)').toBeGreaterThanOrEqual(times.before);
      await expectEveryChunkAtTheService(page, sandbox, encounter, watched, times.endPressedAt);
    });
  });
}

test('the demo: a reload on a busy machine, End on its first press, and the note arrives', async ({
  scribe,
}) => {
  test.setTimeout(180_000);
  const { page } = scribe;
  await tryTheDemo(page);
  await page.getByLabel('Encounter ID').fill('demobusy1');
  await page.getByRole('button', { name: 'Start recording' }).click();
  const times = await reloadAndEndAtOnce(page);
  expect(times.after, 'the running time after the reload (s)').toBeGreaterThanOrEqual(times.before);
  await expect(page.getByTestId('history').getByRole('row', { name: /demobusy1/ })).toContainText(
    /Note ready|No note/,
  );
});
