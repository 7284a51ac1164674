/**
 * Voice detection in Chromium: Silero per 512-sample frame as the app runs it (the reference: the
 * same detector with the model replaced by a replay of its probabilities), and how late it flags
 * each turn of the conversation, and what a frame costs at a visit's pace against back to back,
 * with the speech hold and without it (issue 40). Builds its own page (bench/vad-chromium/harness); needs Chromium.
 *
 *   node --import tsx bench/vad-chromium/main.ts [--quick]   # --quick: one pass of each
 */
import type { Page } from '@playwright/test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { readConversation } from '../../e2e/support/audio-analysis';
import { serveDirectory } from '../../e2e/support/static-server';
import * as run from '../support/run';
import type { Loaded, PacedResult, PassKind, PassResult, VadHarnessApi } from './harness/api';
import { report, type Onset } from './markdown';

/** Passes of each kind, alternating Silero and the reference. */
const ROUNDS = run.QUICK ? 1 : 5;
const FRAME_MS = 32;

const load = (page: Page, base64: string): Promise<Loaded> =>
  page.evaluate((b) => (globalThis as unknown as { vadHarness: VadHarnessApi }).vadHarness.load(b), base64);
const pass = (page: Page, kind: PassKind, probabilities?: number[]): Promise<PassResult> =>
  page.evaluate(([k, p]) => (globalThis as unknown as { vadHarness: VadHarnessApi }).vadHarness.pass(k, p), [
    kind,
    probabilities,
  ] as const);

/** Seconds of the conversation fed at the visit's pace (a chunk every 100 ms). */
const PACED_SECONDS = run.QUICK ? 10 : 30;
const paced = (page: Page, seconds: number, hold: boolean): Promise<PacedResult> =>
  page.evaluate(([s, h]) => (globalThis as unknown as { vadHarness: VadHarnessApi }).vadHarness.paced(s, h), [
    seconds,
    hold,
  ] as const);
/** Paced runs of each detector, the speech hold off and on, alternating. */
const PACED_ROUNDS = run.QUICK ? 1 : 2;

/**
 * For each true turn start, when the detector's verdict first says speech. Frame k holds the
 * samples of [32k, 32k + 32) ms; its verdict exists once its last sample has arrived, at 32(k + 1) ms.
 */
function onsets(speech: boolean[], turns: { speaker: string; startMs: number; endMs: number }[]): Onset[] {
  return turns.map((turn, index) => {
    const holding = Math.floor(turn.startMs / FRAME_MS);
    let flagged: number | undefined;
    for (let k = holding; k < speech.length && k * FRAME_MS < turn.endMs && flagged === undefined; k++) {
      if (speech[k]) flagged = (k + 1) * FRAME_MS;
    }
    return {
      turn: index + 1,
      speaker: turn.speaker,
      startMs: turn.startMs,
      flaggedAtMs: flagged,
      errorMs: flagged === undefined ? undefined : flagged - turn.startMs,
      // A segment from the previous turn went on.
      alreadyInSpeech: holding > 0 && speech[holding - 1] === true,
    };
  });
}

run.runBenchmark('vad-chromium', 4 * 60_000, async () => {
  const started = Date.now();
  const dir = await run.tempDir('bench-vad-chromium-');
  const site = join(dir, 'site');
  // Built the way the app's renderer is: the model and the ORT .wasm through load-silero.ts's `?url` imports.
  await build({
    root: fileURLToPath(new URL('./harness', import.meta.url)),
    configFile: false,
    envDir: false,
    publicDir: false,
    cacheDir: join(dir, 'vite-cache'),
    logLevel: 'warn',
    build: { outDir: site, emptyOutDir: true, minify: true, reportCompressedSize: false },
  });
  const server = await serveDirectory(site);
  run.onCleanup(() => server.close());

  const browser = await run.startChromium();
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.goto(server.url);
  await page.waitForFunction(() => 'vadHarness' in globalThis);

  const conversation = readConversation(run.CONVERSATION_WAV, run.CONVERSATION_TURNS);
  const { samples } = conversation;
  const loaded = await load(
    page,
    Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64'),
  );
  console.log(`model loaded in ${loaded.loadMs.toFixed(0)} ms; ${loaded.frames} frames of 512 samples`);

  const silero: PassResult[] = [];
  const reference: PassResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    silero.push(await pass(page, 'silero'));
    reference.push(await pass(page, 'no-model', silero[0]!.probability));
    console.log(
      `round ${round + 1}: Silero ${(silero.at(-1)!.totalMs / loaded.frames).toFixed(3)} ms/frame, ` +
        `no model ${(reference.at(-1)!.totalMs / loaded.frames).toFixed(4)} ms/frame`,
    );
  }
  const atPace: PacedResult[] = [];
  for (let round = 0; round < PACED_ROUNDS; round++) {
    for (const hold of [false, true]) {
      const result = await paced(page, PACED_SECONDS, hold);
      atPace.push(result);
      console.log(
        `at the visit's pace, the hold ${hold ? 'on' : 'off'}: ${(result.pacedMs / result.frames).toFixed(3)} ms/frame ` +
          `(the model heard ${result.modelled} of ${result.frames}), back to back ${(result.backToBackMs / result.frames).toFixed(3)} ms/frame`,
      );
    }
  }
  await report({
    loaded,
    atPace,
    silero,
    reference,
    onsets: onsets(silero[0]!.speech, conversation.turns),
    chromium: browser.version(),
    wallSeconds: (Date.now() - started) / 1000,
  });
});
