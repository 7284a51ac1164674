import { decodeAudioChunk, type AudioChunk } from '../src/shared/contract/audio-chunk';
import { alignSource, chunkLevels, median, pearson, readConversation } from './support/audio-analysis';
import { expect, test } from './support/fixtures';
import { tryTheDemo } from './support/workspace';

/**
 * The microphone, end to end, in the real app: Chromium's fake capture device plays the committed
 * conversation (e2e/fixtures/conversation.wav: 8 turns, an 8 s silence in the middle) into the app;
 * the test reads every chunk the renderer sends to main off the contract socket and judges it
 * against the source and its turn times.
 */
const WAV = 'e2e/fixtures/conversation.wav';
const conversation = readConversation(WAV, 'e2e/fixtures/conversation.turns.json');
const CHUNK_MS = 100;

test.use({ fakeMicrophone: WAV });

test('the app turns the microphone into 100 ms 16 kHz chunks whose speech flags follow the conversation', async ({
  scribe,
}) => {
  test.skip(
    scribe.target === 'electron',
    'Electron carries chunks over IPC, which a test cannot read; browser mode runs the same renderer code.',
  );
  test.setTimeout(150_000);
  const { page } = scribe;
  const origin = scribe.host!.origin;

  // Everything the page loads, and every chunk it sends, from a fresh load of the app.
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  const chunks: (AudioChunk & { arrivedAt: number; bytes: number })[] = [];
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      if (typeof payload === 'string') return;
      const decoded = decodeAudioChunk(new Uint8Array(payload));
      if (!decoded.ok) throw new Error(`bad chunk: ${decoded.problems[0]!.message}`);
      chunks.push({
        ...decoded.chunk,
        pcm: decoded.chunk.pcm.slice(),
        arrivedAt: Date.now(),
        bytes: payload.length,
      });
    }),
  );
  await page.reload();

  // First run with the built-in demo service, then record.
  await tryTheDemo(page);
  await page.getByRole('button', { name: 'Start recording' }).click();
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
  await expect(page.getByTestId('microphone-name')).toContainText('Microphone:');

  // The meter moves and the flag shows speech while the first turn plays.
  await expect(page.getByTestId('speech-flag')).toHaveText('Speech', { timeout: 15_000 });
  await expect
    .poll(async () => Number(await page.getByTestId('level-meter').getAttribute('aria-valuenow')))
    .toBeGreaterThan(-40);
  await page.screenshot({ path: `e2e/artifacts/recording-${scribe.target}.png`, fullPage: true });

  const total = Math.ceil(conversation.turns.at(-1)!.endMs / CHUNK_MS) + 15;
  await expect
    .poll(() => chunks.length, { timeout: 90_000, intervals: [1_000] })
    .toBeGreaterThanOrEqual(total);
  await page.getByRole('button', { name: 'End visit' }).click();
  // The pane turns to the visit's note by itself.
  await expect(page.getByTestId('results-heading')).toBeFocused();

  // The demo service writes the note from what it heard: sections to copy, a timestamped transcript.
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 60_000 });
  const transcriptTimes = await page.getByTestId('transcript').locator('time').allTextContents();
  expect(transcriptTimes.length).toBeGreaterThan(2);
  for (const time of transcriptTimes) expect(time).toMatch(/^\d+:\d{2}$/);
  const firstSection = page.locator('.note-section').first();
  const title = (await firstSection.getByRole('heading').textContent()) ?? '';
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  await firstSection.getByRole('button', { name: `Copy ${title}` }).click();
  // The button says so itself, for a moment (issue 31), and the window's live region once.
  await expect(firstSection.getByTestId('copied')).toBeVisible();
  await expect(page.getByTestId('copy-status')).toHaveText(`Copied: ${title}.`);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  // The section's text alone: its EHR field already has the label.
  expect(copied).toBe((await firstSection.locator('p').first().textContent())?.trim());
  expect(copied.startsWith(title)).toBe(false);
  expect(copied.length).toBeGreaterThan(10);
  await page.screenshot({ path: `e2e/artifacts/results-${scribe.target}.png`, fullPage: true });

  // Exactly what the service takes: 3,200 bytes of audio per chunk, numbered without gaps; only the
  // last, End's tail (flagged final), may be shorter: 20–100 ms. (End exactly on a chunk boundary
  // leaves no tail.)
  const tail = chunks.at(-1)?.final ? chunks.at(-1)! : undefined;
  const full = tail ? chunks.slice(0, -1) : chunks;
  expect(new Set(full.map((c) => c.pcm.byteLength))).toEqual(new Set([3_200]));
  expect(new Set(full.map((c) => c.bytes))).toEqual(new Set([3_216]));
  expect(full.every((c) => c.final !== true)).toBe(true);
  if (tail) {
    expect(tail.pcm.byteLength).toBeGreaterThanOrEqual(640);
    expect(tail.pcm.byteLength).toBeLessThanOrEqual(3_200);
    expect(tail.bytes).toBe(16 + tail.pcm.byteLength);
  }
  expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, k) => k));
  // Ten a second, as the audio is captured (arrival times at the app core's socket).
  const gaps = chunks.slice(1).map((c, k) => c.arrivedAt - chunks[k]!.arrivedAt);
  const cadence = median(gaps);
  expect(cadence).toBeGreaterThanOrEqual(90);
  expect(cadence).toBeLessThanOrEqual(110);

  // The received audio is the source: find where it starts, then compare waveforms and levels.
  const received = new Int16Array(chunks.reduce((sum, c) => sum + c.pcm.byteLength / 2, 0));
  chunks.forEach((c, k) =>
    received.set(new Int16Array(c.pcm.buffer, c.pcm.byteOffset, c.pcm.byteLength / 2), k * 1_600),
  );
  const firstTurn = conversation.turns[0]!;
  const { lag, correlation } = alignSource(
    conversation.samples,
    received,
    { fromSample: (firstTurn.startMs / 1_000) * 16_000, length: 32_000 },
    3 * 16_000,
  );
  console.log(`capture alignment: lag ${lag} samples, waveform r ${correlation.toFixed(3)}`);
  expect(correlation, 'waveform correlation with the source').toBeGreaterThan(0.9);
  const lagMs = (lag / 16_000) * 1_000;
  // Nothing at the start is lost: the worklet is connected as soon as the microphone opens (the
  // fake device starts playing then). Before that fix up to a second went missing here.
  expect(lagMs, 'audio lost before capture began (ms)').toBeGreaterThan(-100);
  const sourceLevels = chunkLevels(conversation.samples.subarray(Math.max(0, -lag)));
  const receivedLevels = chunkLevels(received.subarray(Math.max(0, lag)));
  const levelMatch = pearson(sourceLevels, receivedLevels);
  expect(levelMatch, 'chunk RMS follows the source').toBeGreaterThan(0.95);

  // Speech flags against the turn times (source time = chunk start − lag): each turn's first
  // flagged chunk at or after the one holding its onset starts at most 150 ms after the onset
  // (the main process's 600 ms pre-roll covers that much); chunks well inside the long silence
  // are not speech.
  const flagAtSourceMs = (ms: number) => chunks[Math.floor((ms + lagMs) / CHUNK_MS)]?.speech;
  const startOfChunkHolding = (ms: number) => Math.floor((ms + lagMs) / CHUNK_MS);
  const report: string[] = [];
  for (const turn of conversation.turns) {
    const onsetChunk = startOfChunkHolding(turn.startMs);
    const first = chunks.findIndex((c, k) => k >= onsetChunk && c.speech);
    const lateMs = first * CHUNK_MS - lagMs - turn.startMs;
    report.push(`${turn.startMs}:${Math.round(lateMs)}`);
    expect(first, `turn at ${turn.startMs} ms is flagged`).toBeGreaterThanOrEqual(0);
    expect(lateMs, `turn at ${turn.startMs} ms flagged late`).toBeLessThanOrEqual(150);
  }
  const { startMs, endMs } = conversation.longSilence;
  const silentFlags: boolean[] = [];
  for (let ms = startMs + 2_000; ms < endMs - 300; ms += CHUNK_MS)
    silentFlags.push(flagAtSourceMs(ms) === true);
  expect(silentFlags.filter(Boolean).length, 'speech flags inside the long silence').toBe(0);
  console.log(
    `capture: ${chunks.length} chunks, cadence median ${cadence} ms, lag ${lagMs.toFixed(1)} ms, waveform r ${correlation.toFixed(3)}, level r ${levelMatch.toFixed(3)}, onset lateness (turn:ms) ${report.join(' ')}`,
  );

  // Nothing came from outside the app: the model and the wasm runtime are the app's own files.
  const foreign = requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'));
  expect(foreign).toEqual([]);
  expect(requests.some((url) => url.endsWith('.onnx'))).toBe(true);
  expect(requests.some((url) => url.endsWith('.wasm'))).toBe(true);
});
