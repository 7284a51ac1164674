import { expect, test } from './support/external-service';
import { tryTheDemo } from './support/workspace';

/**
 * Issue 36: the voice model loading slowly, as on a busy laptop (5.8 s measured beside two other
 * tests' Chromiums), must not keep the microphone closed. The model's file is held back here until
 * the page has sent three seconds of audio; the microphone opens at Start all the same, the clock
 * runs, and what it captures meanwhile goes out flagged as speech, so nothing is paused away. When
 * the model loaded first, on the page's main thread, no chunk came until it was ready.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

/** Three seconds of audio, in chunks of 100 ms. */
const CHUNKS_BEFORE_THE_MODEL = 30;

test('Start opens the microphone at once while the voice model is still loading, and loses nothing to it', async ({
  scribe,
  watched,
}) => {
  test.setTimeout(90_000);
  const { page } = scribe;
  const { audio } = watched;
  let modelAsked = false;
  // The test lets the model's file through itself, once it has seen the page record without it:
  // a release on its own clock (a poll of the chunk count) raced the checks below.
  let releaseTheModel!: () => void;
  const released = new Promise<void>((resolve) => (releaseTheModel = resolve));
  await page.context().route(/silero_vad_v5[^/]*\.onnx$/, async (route) => {
    modelAsked = true;
    await released;
    await route.continue();
  });
  // The window asks for the model as it loads (main.tsx), and the fixture loaded it before this
  // test could hold the file: on a quick machine the model was fetched before the route was in
  // place (CI, session 26: "the page asked for the voice model" false). Loaded again, the window's
  // first request meets the route; Playwright turns the HTTP cache off while a route is set.
  await page.reload();
  await tryTheDemo(page);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);

  // While the model is held the page records: the clock runs and the pane says why there are no
  // speech decisions yet.
  await expect.poll(() => audio.count, { timeout: 30_000 }).toBeGreaterThanOrEqual(CHUNKS_BEFORE_THE_MODEL);
  expect(modelAsked, 'the page asked for the voice model').toBe(true);
  await expect(page.getByTestId('elapsed')).not.toHaveText(/^\s*0:0[01]$/);
  await expect(page.getByTestId('microphone-name')).toContainText('starting voice detection');

  // Released, the model takes over: the pane stops saying it starts.
  releaseTheModel();
  await expect(page.getByTestId('microphone-name')).not.toContainText('starting voice detection', {
    timeout: 30_000,
  });
  // Every chunk captured without the model went out as speech: none is left out by a pause.
  const beforeTheModel = audio.chunks.slice(0, CHUNKS_BEFORE_THE_MODEL);
  expect(beforeTheModel.filter((c) => !c.speech).map((c) => c.seq)).toEqual([]);
  expect(beforeTheModel.map((c) => c.seq)).toEqual([...Array(CHUNKS_BEFORE_THE_MODEL).keys()]);

  await page.getByRole('button', { name: 'End visit' }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 60_000 });
});
