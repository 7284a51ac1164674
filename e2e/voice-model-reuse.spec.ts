import { expect, startVisit, test } from './support/external-service';
import { tryTheDemo, untilRecorded } from './support/workspace';

/**
 * The voice model across visits (issue 36): each visit used to get a new worker, which compiled
 * onnxruntime's WebAssembly again after every End (about 2.2 s of the renderer's CPU each time,
 * measured, on a clinic laptop as in every test that records twice). Now the worker a visit lets
 * go keeps its compiled runtime and makes the next visit's model there, from nothing: one worker
 * for the window's visits. What could break is the next visit's voice detection, so it is checked
 * on the chunks: the conversation falls silent from 18.9 s to 26.9 s, which a working model flags
 * quiet and the fallback (no model: every chunk speech, so nothing is paused away) would not.
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });

/** 20.0-21.5 s of the conversation: its long silence, past the detector's redemption (chunks of 100 ms). */
const QUIET = { from: 200, to: 215 };
/** 9.4-11.8 s: the clinician's second question. */
const SPEECH = { from: 95, to: 118 };

test('the next visit’s voice detection runs in the worker the last visit let go, and tells speech from quiet', async ({
  scribe,
  watched,
}) => {
  test.setTimeout(150_000);
  const { page } = scribe;
  // Every worker the page makes, by name.
  await page.addInitScript(() => {
    const made: string[] = [];
    (window as unknown as { __workers: string[] }).__workers = made;
    const Native = window.Worker;
    window.Worker = class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        made.push(options?.name ?? '');
      }
    };
  });
  await page.reload();
  await tryTheDemo(page);
  const voiceWorkers = () =>
    page.evaluate(
      () =>
        (window as unknown as { __workers: string[] }).__workers.filter((n) => n === 'voice detection')
          .length,
    );

  // A short first visit, then the one whose model is made in the worker the first let go.
  const visitChunks: (typeof watched.audio.chunks)[] = [];
  for (const [encounterId, seconds] of [
    ['reuse1', 3],
    ['reuse2', 22],
  ] as const) {
    const from = watched.audio.count;
    await startVisit(page, encounterId);
    // The microphone's line is there (a negated text check passes on no element), and says the
    // model is ready.
    await expect(page.getByTestId('microphone-name')).toBeVisible();
    await expect(page.getByTestId('microphone-name')).not.toContainText('starting voice detection', {
      timeout: 30_000,
    });
    await untilRecorded(page, seconds, 60_000);
    await page.getByRole('button', { name: 'End visit' }).click();
    await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 60_000 });
    visitChunks.push(watched.audio.chunks.slice(from));
  }

  // The second visit's model ran: the silence quiet, the words speech.
  const second = visitChunks[1]!;
  const flags = second.map((c) => (c.speech ? 'S' : '.')).join('');
  const quiet = second.slice(QUIET.from, QUIET.to);
  expect(
    quiet.filter((c) => !c.speech).length,
    `the second visit's silence at 20.0-21.5 s flagged quiet (${flags})`,
  ).toBeGreaterThanOrEqual(quiet.length / 2);
  expect(
    second.slice(SPEECH.from, SPEECH.to).filter((c) => c.speech).length,
    `the second visit's question at 9.4-11.8 s flagged speech (${flags})`,
  ).toBeGreaterThan(0);
  // One worker for the window: made at load, each visit's model in it, none made after an End.
  expect(await voiceWorkers()).toBe(1);
});
