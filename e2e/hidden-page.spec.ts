import { createHash } from 'node:crypto';
import { contiguousFromZero } from './support/captured-audio';
import { expect, startVisit, useExternalService } from './support/external-service';
import { hideableAppTest } from './support/hidden-page-app';
import { pageTiming, timePageSends, type TimedSend } from './support/page-sends';
import { untilRecorded } from './support/workspace';

/**
 * Issue 14, "the page hidden": a clinician minimizes the app or moves to the EHR during the visit.
 * Browser mode in a Chromium whose page can really be hidden (support/hideable-chromium.ts: the
 * page's timers are throttled as a clinician's would be). The page is hidden for 60 s; chunks must
 * keep their 100 ms cadence (send times in the page, against the capture clock) and every one must
 * reach the service (SHA-256). The microphone plays the conversation in a loop, so the visit never
 * runs out of speech (nothing is held back by an auto-pause).
 */
const WAV = 'e2e/fixtures/conversation.wav';
const HIDDEN_MS = 60_000;
/**
 * Web Audio's default render quantum at 16 kHz, 128 samples: the cadence's tolerance. It stays this
 * tight where the graph renders a whole chunk per quantum (src/renderer/audio/capture-latency.ts):
 * the chunk is still rendered in the callback whose audio runs out, at the same times.
 */
const QUANTUM_MS = 8;

const test = hideableAppTest(WAV);

test.skip(({ target }) => target !== 'browser', 'Browser mode: a Chromium page that can be hidden.');

/** How late each chunk was sent against the capture clock (ms over the fastest delivery). */
function lateness(sends: TimedSend[]): number[] {
  let end = 0;
  const due = sends.map((s) => (end += s.samples) / 16);
  const offset = Math.min(...sends.map((s, k) => s.at - due[k]!));
  return sends.map((s, k) => s.at - due[k]! - offset);
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(1)}, p95 ${at(0.95).toFixed(1)}, max ${sorted.at(-1)!.toFixed(1)} (n ${values.length})`;
}

for (const how of ['window minimized', 'another tab in front'] as const) {
  test(`the page hidden for 60 s (${how}): chunks keep their 100 ms cadence and every one reaches the service`, async ({
    scribe,
    chromium,
    sandbox,
    watched,
  }) => {
    test.setTimeout(240_000);
    const { page } = scribe;
    await timePageSends(page);
    await page.addInitScript(() => {
      const log: { state: string; at: number }[] = [];
      (window as unknown as { __visibility: typeof log }).__visibility = log;
      document.addEventListener('visibilitychange', () =>
        log.push({ state: document.visibilityState, at: performance.timeOrigin + performance.now() }),
      );
    });
    await page.reload();
    await useExternalService(page, sandbox.url, 'dr-hidden');
    await startVisit(page, 'hidden1');
    const { id } = await sandbox.sessionOf('hidden1');
    await untilRecorded(page, 10, 60_000);

    if (how === 'window minimized') await chromium.minimize();
    else await chromium.otherTabInFront();
    await new Promise((resolve) => setTimeout(resolve, HIDDEN_MS));
    await chromium.show();
    await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await page.getByRole('button', { name: 'End visit' }).click();
    await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });

    // The page really was hidden, for the whole minute.
    const visibility = await page.evaluate(
      () => (window as unknown as { __visibility: { state: string; at: number }[] }).__visibility,
    );
    const hiddenAt = visibility.find((v) => v.state === 'hidden')?.at;
    const shownAt = visibility.find((v) => v.state === 'visible' && v.at > (hiddenAt ?? Infinity))?.at;
    expect(hiddenAt, 'the page went hidden').toBeDefined();
    expect(shownAt! - hiddenAt!).toBeGreaterThanOrEqual(HIDDEN_MS - 1_000);

    // Cadence: the same while hidden as while visible.
    const { sends } = await pageTiming(page);
    const late = lateness(sends);
    const hiddenIdx = sends
      .map((s, k) => (s.at > hiddenAt! + 200 && s.at < shownAt! ? k : -1))
      .filter((k) => k >= 0);
    const visibleIdx = sends
      .map((s, k) => (s.at < hiddenAt! || s.at > shownAt! + 200 ? k : -1))
      .filter((k) => k >= 0);
    const intervals = (idx: number[]) =>
      idx
        .slice(1)
        .filter((k) => idx.includes(k - 1))
        .map((k) => sends[k]!.at - sends[k - 1]!.at);
    const hiddenIntervals = intervals(hiddenIdx);
    const visibleIntervals = intervals(visibleIdx);
    const hiddenLate = hiddenIdx.map((k) => late[k]!);
    const visibleLate = visibleIdx.map((k) => late[k]!);
    // Voice detection kept up: the looping conversation's speech is flagged while hidden as before.
    const speechShare = (idx: number[]) =>
      idx.filter((k) => watched.audio.chunks[k]?.speech).length / idx.length;
    const offBeatShare = (intervals: number[]) =>
      intervals.filter((ms) => Math.abs(ms - 100) > 2 * QUANTUM_MS).length / intervals.length;
    console.log(
      `hidden page (${how}): speech flagged in ${(100 * speechShare(hiddenIdx)).toFixed(0)}% of chunks while hidden, ${(100 * speechShare(visibleIdx)).toFixed(0)}% while visible; ${hiddenIdx.length} chunks sent while hidden (${((shownAt! - hiddenAt!) / 1_000).toFixed(1)} s); ` +
        `intervals hidden ${stats(hiddenIntervals)} / visible ${stats(visibleIntervals)} ms; ` +
        `off the beat by over two quanta hidden ${(100 * offBeatShare(hiddenIntervals)).toFixed(1)} % / visible ${(100 * offBeatShare(visibleIntervals)).toFixed(1)} %; ` +
        `lateness on the capture clock hidden ${stats(hiddenLate)} / visible ${stats(visibleLate)} ms`,
    );
    // Ten a second while hidden: as many chunks as the time hidden holds.
    expect(hiddenIdx.length).toBeGreaterThanOrEqual(Math.floor((shownAt! - hiddenAt! - 200) / 100) - 1);
    // Every 100 ms ± a render quantum: a chunk boundary falls on a quantum, so an interval between
    // two sends may be off by one quantum at each end.
    const quantile = (values: number[], q: number) =>
      [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
    expect(quantile(hiddenIntervals, 0.5), 'median interval while hidden (ms)').toBeGreaterThanOrEqual(
      100 - QUANTUM_MS,
    );
    expect(quantile(hiddenIntervals, 0.5), 'median interval while hidden (ms)').toBeLessThanOrEqual(
      100 + QUANTUM_MS,
    );
    // Off the beat by more than two quanta: no more often while hidden than while visible in the
    // same visit. A fixed 5 % failed at 6.7 % hidden with the visible intervals as jittery (p95
    // 116.0 ms hidden, 116.5 visible): the fake devices' timing that day, not the page hidden (the
    // test's timing). A throttled page sends in bursts, off the beat most of the time.
    expect(
      offBeatShare(hiddenIntervals),
      'share of intervals off by more than two quanta, hidden against visible',
    ).toBeLessThanOrEqual(Math.max(0.05, offBeatShare(visibleIntervals) + 0.05));
    // And no chunk held back: sent as promptly after its capture as while visible (steady state,
    // past the first 3 s), within a quantum, 95% of the time. A throttled page would hold chunks
    // back for up to a second.
    const steadyLate = visibleIdx.filter((k) => sends[k]!.at > sends[0]!.at + 3_000).map((k) => late[k]!);
    expect(
      quantile(hiddenLate, 0.95),
      'p95 lateness on the capture clock while hidden (ms)',
    ).toBeLessThanOrEqual(quantile(steadyLate, 0.95) + QUANTUM_MS);
    expect(speechShare(hiddenIdx), 'share of chunks flagged speech while hidden').toBeGreaterThan(0.3);

    // Nothing missing: every chunk, in order, is at the service.
    const { audio } = watched;
    expect(audio.seqs).toEqual(contiguousFromZero(audio.count));
    const session = await sandbox.session(id);
    expect(session.received_bytes).toBe(audio.bytes);
    expect(session.pcm_sha256).toBe(createHash('sha256').update(audio.pcm()).digest('hex'));
    expect(session.timeline.map((e) => e.type)).not.toContain('PAUSE');
  });
}
