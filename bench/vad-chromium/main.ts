/**
 * Voice detection in Chromium: what Silero costs per 512-sample frame as the app runs it, and how
 * late it flags each turn of the conversation fixture.
 *
 *   node --import tsx bench/vad-chromium/main.ts [--quick]
 *
 * A page built by Vite from bench/vad-chromium/harness/ runs the app's SpeechDetector
 * (src/renderer/audio/vad/, loaded by its own load-silero.ts) on e2e/fixtures/conversation.wav's
 * 16 kHz samples, one frame per classify() call. Reference, same page and run: the same detector
 * with the inference session replaced by a replay of the model's probabilities (framing, tensors,
 * the FrameProcessor's bookkeeping; no model). Needs Chromium; not `npm run build` (it builds its page).
 */
import type { Page } from '@playwright/test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConversation } from '../../e2e/support/audio-analysis';
import { CONVERSATION_WAV, launchChromium } from '../browser-app/launch';
import { QUICK, onCleanup, requireChromium, runBenchmark } from '../browser-app/run';
import { serveDirectory } from '../browser-app/static-server';
import { buildHarness } from './build';
import type { Loaded, PassKind, PassResult, VadHarnessApi } from './harness/api';
import { report } from './markdown';
import { onsets } from './onset';

const TURNS = 'e2e/fixtures/conversation.turns.json';
/** Passes of each kind, alternating Silero and the reference. */
const ROUNDS = QUICK ? 1 : 5;

const load = (page: Page, base64: string): Promise<Loaded> =>
  page.evaluate((b) => (globalThis as unknown as { vadHarness: VadHarnessApi }).vadHarness.load(b), base64);
const pass = (page: Page, kind: PassKind, probabilities?: number[]): Promise<PassResult> =>
  page.evaluate(([k, p]) => (globalThis as unknown as { vadHarness: VadHarnessApi }).vadHarness.pass(k, p), [
    kind,
    probabilities,
  ] as const);

runBenchmark('vad-chromium', 4 * 60_000, async () => {
  requireChromium();
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'bench-vad-chromium-'));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  const site = join(dir, 'site');
  await buildHarness(site, join(dir, 'vite-cache'));
  const server = await serveDirectory(site);

  const browser = await launchChromium();
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.goto(server.url);
  await page.waitForFunction(() => 'vadHarness' in globalThis);

  const conversation = readConversation(CONVERSATION_WAV, TURNS);
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
  await report({
    loaded,
    silero,
    reference,
    onsets: onsets(silero[0]!.speech, conversation.turns, 32),
    chromium: browser.version(),
    wallSeconds: (Date.now() - started) / 1000,
  });
});
