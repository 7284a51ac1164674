import { createHash } from 'node:crypto';
import { contiguousFromZero } from './support/captured-audio';
import { expect, startVisit, useExternalService } from './support/external-service';
import { hideableAppTest } from './support/hidden-page-app';
import { recordedSeconds, untilRecorded } from './support/workspace';

/**
 * Issue 40, the window behind the EHR: while a visit records and the window is hidden (minimised,
 * or another tab in front), nothing the clinician cannot see is drawn. No animation frame of the
 * app's runs and the page's DOM does not change for 10 s; the chunks, voice detection and delivery
 * go on; and the moment the window shows, the visit's clock is right. Browser mode in a Chromium
 * whose page can really be hidden (support/hideable-chromium.ts); the microphone plays the
 * conversation in a loop, so nothing is held back by an auto-pause.
 */
const test = hideableAppTest('e2e/fixtures/conversation.wav');
const QUIET_MS = 10_000;

test.skip(({ target }) => target !== 'browser', 'Browser mode: a Chromium page that can be hidden.');

interface Watch {
  frames: number;
  mutations: string[];
}

test('hidden while recording: nothing drawn or changed, every chunk delivered, the clock right on show', async ({
  scribe,
  chromium,
  sandbox,
  watched,
}) => {
  test.setTimeout(180_000);
  const { page } = scribe;
  // Counts the app's own animation-frame callbacks that run while the page is hidden.
  await page.addInitScript(() => {
    const watch: Watch = { frames: 0, mutations: [] };
    (window as unknown as { __watch: Watch }).__watch = watch;
    const request = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) =>
      request((time) => {
        if (document.hidden) watch.frames++;
        callback(time);
      });
  });
  await page.reload();
  await useExternalService(page, sandbox.url, 'dr-behind');
  await startVisit(page, 'behind1');
  const { id } = await sandbox.sessionOf('behind1');
  await untilRecorded(page, 3, 60_000);

  for (const how of ['window minimized', 'another tab in front'] as const) {
    if (how === 'window minimized') await chromium.minimize();
    else await chromium.otherTabInFront();
    await expect.poll(() => page.evaluate(() => document.visibilityState)).toBe('hidden');
    const chunksBefore = watched.audio.count;
    // Every change to the page's DOM while hidden: each a line naming what changed.
    await page.evaluate(() => {
      const watch = (window as unknown as { __watch: Watch }).__watch;
      watch.frames = 0;
      watch.mutations = [];
      const observer = new MutationObserver((records) => {
        for (const record of records) {
          const target = record.target instanceof Element ? record.target : record.target.parentElement;
          watch.mutations.push(
            `${record.type} ${record.attributeName ?? ''} in ${target?.tagName.toLowerCase()}${target?.getAttribute('data-testid') ? `[data-testid=${target.getAttribute('data-testid')}]` : ''}`,
          );
        }
      });
      // The body: the title (in the head) is the taskbar's, which says the visit records and
      // its whole minutes while the window is behind (visit/recording-title.ts).
      observer.observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      (window as unknown as { __observer: MutationObserver }).__observer = observer;
    });
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    const seen = await page.evaluate(() => {
      const { __watch: watch, __observer: observer } = window as unknown as {
        __watch: Watch;
        __observer: MutationObserver;
      };
      watch.mutations.push(...observer.takeRecords().map((r) => `${r.type} (pending)`));
      observer.disconnect();
      return { frames: watch.frames, mutations: watch.mutations, hidden: document.hidden };
    });
    const chunksWhileHidden = watched.audio.count - chunksBefore;
    console.log(
      `hidden (${how}) for ${QUIET_MS / 1_000} s: ${seen.frames} animation frames, ${seen.mutations.length} DOM changes, ${chunksWhileHidden} chunks sent`,
    );
    expect(seen.hidden, 'still hidden at the end').toBe(true);
    expect(seen.frames, `animation frames run while hidden (${how})`).toBe(0);
    expect(seen.mutations, `DOM changes while hidden (${how})`).toEqual([]);
    // Ten chunks a second went on: the capture is not the screen's.
    expect(chunksWhileHidden, 'chunks sent in the 10 s hidden').toBeGreaterThanOrEqual(QUIET_MS / 100 - 5);

    await chromium.show();
    await expect.poll(() => page.evaluate(() => document.visibilityState)).toBe('visible');
    // The clock caught up at once: its whole seconds against the audio the page has sent (a
    // chunk or two may be on their way to main).
    const shown = await recordedSeconds(page);
    const sentS = (watched.audio.count * 100) / 1_000;
    expect(shown, `the clock on show against the audio sent (${sentS} s)`).toBeGreaterThanOrEqual(
      Math.floor(sentS) - 1,
    );
    expect(shown, `the clock on show against the audio sent (${sentS} s)`).toBeLessThanOrEqual(
      Math.ceil(sentS),
    );
  }

  await page.getByRole('button', { name: 'End visit' }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });
  // Every chunk, in order, is at the service.
  const { audio } = watched;
  expect(audio.seqs).toEqual(contiguousFromZero(audio.count));
  const session = await sandbox.session(id);
  expect(session.received_bytes).toBe(audio.bytes);
  expect(session.pcm_sha256).toBe(createHash('sha256').update(audio.pcm()).digest('hex'));
});
