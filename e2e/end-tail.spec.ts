import { createHash } from 'node:crypto';
import { CapturedAudio } from './support/captured-audio';
import { expect, test, startVisit, useExternalService } from './support/external-service';
import { captureClock, pageTiming, samplesSent, timePageSends } from './support/page-sends';
import { alignSource, readConversation } from './support/audio-analysis';

/**
 * Issue 14, "the tail at End": the audio captured since the last full 100 ms chunk reaches the
 * service as a final, shorter chunk before EOF, so a word spoken as End is pressed is not clipped.
 *
 * The capture clock: samples captured at 16 kHz since the recording's first chunk, mapped to the
 * page's own clock through the times the page sent its full chunks (support/page-sends.ts). The End
 * press is read on it when the click's handlers run; the service's audio ends at its byte count.
 * Distance = service samples − samples captured at the press, in ms: without the tail it is
 * −(0…100 ms) (the partial chunk is lost); with it, 0…20 ms (the flush's few ms of travel, plus at
 * most 20 ms of zero padding when the tail was under the service's 20 ms minimum).
 */
const WAV = 'e2e/fixtures/conversation.wav';
const conversation = readConversation(WAV, 'e2e/fixtures/conversation.turns.json');

test.use({ fakeMicrophone: WAV });
test.skip(({ target }) => target !== 'browser', 'Browser mode times what the page sends; Electron uses IPC.');

test('End in the middle of a word: the service’s audio ends within 20 ms of the press, the tail included', async ({
  scribe,
  sandbox,
}) => {
  test.setTimeout(240_000);
  const { page } = scribe;
  const audio = new CapturedAudio(page);
  await timePageSends(page);
  await page.reload();
  await useExternalService(page, sandbox.url, 'dr-tail');

  // Mid-words of the second turn (4.1–8.6 s of the source, after enough speech for a note): inside
  // its stretches of speech at least 400 ms long, 60–130 ms in, so a press a little late still lands
  // in the word; a different point of the chunk each time.
  const turn = conversation.turns[1]!;
  const stretches = speechStretches(turn.startMs, turn.endMs, 400);
  const pressAtMs = [60, 93, 127].map((offset, k) => stretches[k % stretches.length]!.startMs + offset);
  const results: string[] = [];
  for (const [run, atMs] of pressAtMs.entries()) {
    const firstSend = (await pageTiming(page)).sends.length;
    const firstChunk = audio.count;
    const encounter = `tail${run + 1}`;
    await startVisit(page, encounter);
    // Wait on the capture itself (what was sent), then press End.
    await expect
      .poll(() => samplesSent(page, firstSend), { intervals: [10], timeout: 30_000 })
      .toBeGreaterThanOrEqual((atMs / 1_000) * 16_000);
    await page.getByRole('button', { name: 'End visit' }).click();
    await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 60_000 });

    const timing = await pageTiming(page);
    const sends = timing.sends.slice(firstSend);
    const pressedAt = timing.endPresses.at(-1)!;
    const clock = captureClock(sends);
    const capturedAtPress = clock.samplesAt(pressedAt);

    // What the page sent for this visit: full chunks, then the tail flagged final (unless End fell
    // exactly on a chunk boundary), and the service has exactly that.
    const chunks = audio.chunks.slice(firstChunk);
    const last = chunks.at(-1)!;
    expect(chunks.slice(0, -1).every((c) => c.pcm.byteLength === 3_200 && !c.final)).toBe(true);
    if (last.final) {
      expect(last.pcm.byteLength).toBeGreaterThanOrEqual(640);
      expect(last.pcm.byteLength).toBeLessThanOrEqual(3_200);
    }
    const session = await sandbox.sessionOf(encounter);
    const sentBytes = chunks.reduce((sum, c) => sum + c.pcm.byteLength, 0);
    expect(session.received_bytes, 'bytes at the service').toBe(sentBytes);
    expect(session.pcm_sha256).toBe(
      createHash('sha256')
        .update(Buffer.concat(chunks.map((c) => c.pcm)))
        .digest('hex'),
    );

    const serviceSamples = session.received_bytes / 2;
    const distanceMs = (serviceSamples - capturedAtPress) / 16;
    const tailMs = last.final ? last.pcm.byteLength / 32 : 0;
    // The press was mid-word: where the service's audio ends, the source (lined up with it) is speech.
    const pcm = Buffer.concat(chunks.map((c) => c.pcm));
    const received = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
    const { lag, correlation } = alignSource(
      conversation.samples,
      received,
      { fromSample: (turn.startMs / 1_000) * 16_000, length: 8_000 },
      16_000,
    );
    expect(correlation, 'the service audio lines up with the source').toBeGreaterThan(0.9);
    const sourceAtPressMs = (capturedAtPress - lag) / 16;
    const levelAtPress = levelDb(sourceAtPressMs);
    results.push(
      `run ${run + 1}: End at ${(capturedAtPress / 16).toFixed(1)} ms of capture (source ${sourceAtPressMs.toFixed(0)} ms, ${levelAtPress.toFixed(1)} dBFS there; lag ${lag}, r ${correlation.toFixed(3)}), service audio ends at ${(serviceSamples / 16).toFixed(1)} ms: ${distanceMs.toFixed(1)} ms after the press; tail ${tailMs} ms`,
    );
    console.log(results.at(-1));
    expect(levelAtPress, 'the source is speech where End was pressed (dBFS)').toBeGreaterThan(-40);
    expect(distanceMs, 'service audio end − End press on the capture clock (ms)').toBeLessThanOrEqual(20);
    expect(distanceMs, 'service audio end − End press on the capture clock (ms)').toBeGreaterThanOrEqual(-20);
  }
});

/** RMS level of the source over the 40 ms around `ms`, dBFS. */
function levelDb(ms: number): number {
  const centre = Math.round((ms / 1_000) * 16_000);
  const window = conversation.samples.subarray(centre - 320, centre + 320);
  const rms = Math.sqrt(window.reduce((sum, v) => sum + v * v, 0) / window.length) / 32_768;
  return 20 * Math.log10(Math.max(rms, 1e-9));
}

/** Stretches of the source between `fromMs` and `toMs` where every 10 ms step is speech (> −35 dBFS). */
function speechStretches(fromMs: number, toMs: number, minMs: number): { startMs: number; endMs: number }[] {
  const found: { startMs: number; endMs: number }[] = [];
  let start: number | undefined;
  for (let at = fromMs; at <= toMs; at += 10) {
    const loud = at < toMs && levelDb(at) > -35;
    if (loud && start === undefined) start = at;
    if (!loud && start !== undefined) {
      if (at - start >= minMs) found.push({ startMs: start, endMs: at });
      start = undefined;
    }
  }
  if (found.length === 0)
    throw new Error(`no stretch of speech ${minMs} ms long in the fixture's second turn`);
  return found;
}
