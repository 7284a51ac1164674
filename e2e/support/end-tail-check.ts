import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { SandboxProcess } from '../../sandbox/test-support/sandbox-process';
import { alignSource, alignStretch, readConversation } from './audio-analysis';
import { CapturedAudio } from './captured-audio';
import { expect, startVisit } from './external-service';
import { heardMs, pageTiming, timePageSends } from './page-sends';

/**
 * End in the middle of a word, judged on the fixture's own timeline (issues 14, 36 and 37): the
 * press is where the fake microphone was in its file (its track's count of delivered audio, read as
 * End's click runs), and the service's audio must end there, within 20 ms either way (the count
 * moves in 10 ms steps; a tail under the service's 20 ms minimum is padded with zeros, left out
 * here). What was still in the capture path at the press, up to half a second on a busy machine,
 * counts as heard: before the drain End cut it off, and the page's own clock never saw it missing.
 */
export const FIXTURE = 'e2e/fixtures/conversation.wav';
const conversation = readConversation(FIXTURE, 'e2e/fixtures/conversation.turns.json');

/**
 * Watches what the page sends and when End is pressed, from its next load on: call before the
 * reload that precedes `endMidWordRuns`.
 */
export async function watchEndTail(page: Page): Promise<CapturedAudio> {
  const audio = new CapturedAudio(page);
  await timePageSends(page);
  return audio;
}

/** Records one visit per press point and checks where each one's audio ends; returns a line per run. */
export async function endMidWordRuns(
  page: Page,
  audio: CapturedAudio,
  sandbox: SandboxProcess,
  label: string,
): Promise<string[]> {
  // Mid-words of the second turn (4.1–8.6 s of the source, after enough speech for a note): inside
  // its stretches of speech at least 400 ms long, 60–130 ms in, so a press a little late still lands
  // in the word; a different point of the chunk each time.
  const turn = conversation.turns[1]!;
  const stretches = speechStretches(turn.startMs, turn.endMs, 400);
  const pressAtMs = [60, 93, 127].map((offset, k) => stretches[k % stretches.length]!.startMs + offset);
  const results: string[] = [];
  // A press is counted where it landed in the word. The runner presses as the microphone's count
  // passes the aim, which lands 0–30 ms late; on a busy machine presses came up to a second late
  // (full runs, aim 5,750 ms: 6,000 and 6,140 still in speech, 6,790 in the silence after the
  // word, where an end cannot be lined up). Such a run is recorded and checked like the others,
  // and another is made, up to MAX_RUNS in all; the three presses in words are what is judged.
  const MAX_RUNS = 6;
  let inWord = 0;
  for (let run = 0; inWord < pressAtMs.length; run++) {
    expect(run, 'visits recorded to get three presses inside a word').toBeLessThan(MAX_RUNS);
    const atMs = pressAtMs[inWord]!;
    const firstChunk = audio.count;
    const encounter = `${label}${run + 1}`;
    await startVisit(page, encounter);
    // Wait on the microphone itself (how far into the file it is), then press End.
    await expect.poll(() => heardMs(page), { intervals: [10], timeout: 30_000 }).toBeGreaterThanOrEqual(atMs);
    await page.getByRole('button', { name: 'End visit' }).click();
    await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 60_000 });

    // What the page sent for this visit: full chunks, then the tail flagged final (unless End fell
    // exactly on a chunk boundary), and the service has exactly that.
    const chunks = audio.chunks.slice(firstChunk);
    const last = chunks.at(-1)!;
    expect(chunks.slice(0, -1).every((c) => c.pcm.byteLength === 3_200 && !c.final)).toBe(true);
    if (last.final) {
      expect(last.pcm.byteLength).toBeGreaterThanOrEqual(640);
      expect(last.pcm.byteLength).toBeLessThanOrEqual(3_200);
    }
    const pcm = Buffer.concat(chunks.map((c) => c.pcm));
    const session = await sandbox.sessionOf(encounter);
    expect(session.received_bytes, 'bytes at the service').toBe(pcm.byteLength);
    expect(session.pcm_sha256).toBe(createHash('sha256').update(pcm).digest('hex'));

    const heardAtPressMs = (await pageTiming(page)).deliveredAtPresses.at(-1);
    expect(heardAtPressMs, 'the microphone counts what it delivered (track stats)').toEqual(
      expect.any(Number),
    );
    const received = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength));
    const end = lineUpEnd(received);
    expect(end.correlation, 'the service audio’s last half second lines up with the source').toBeGreaterThan(
      0.9,
    );
    const levelAtPress = levelDb(heardAtPressMs!);
    const distanceMs = end.endMs - heardAtPressMs!;
    results.push(
      `run ${run + 1}: End with ${heardAtPressMs} ms of the fixture heard (${levelAtPress.toFixed(1)} dBFS there); the service’s audio ends at ${end.endMs.toFixed(1)} ms of it (lag ${end.lag}, r ${end.correlation.toFixed(3)}): ${distanceMs.toFixed(1)} ms; tail ${last.final ? last.pcm.byteLength / 32 : 0} ms`,
    );
    if (levelAtPress <= -40) {
      results[results.length - 1] += `: the press came after the word (aimed at ${atMs} ms), not counted`;
      console.log(results.at(-1));
      continue;
    }
    console.log(results.at(-1));
    inWord += 1;
    expect(distanceMs, 'service audio end − End press on the fixture’s timeline (ms)').toBeLessThanOrEqual(
      20,
    );
    expect(distanceMs, 'service audio end − End press on the fixture’s timeline (ms)').toBeGreaterThanOrEqual(
      -20,
    );
  }
  return results;
}

/**
 * Where the service's audio ends on the fixture's timeline (ms of the source), its zero padding left
 * out: its last half second is found in the source, searched from 100 ms before where the whole
 * recording lines up to a second after it (zeros Web Audio filled into gaps on a busy machine move
 * the end later).
 */
function lineUpEnd(received: Int16Array): { endMs: number; lag: number; correlation: number } {
  let audio = received.length;
  while (audio > 0 && received[audio - 1] === 0) audio--;
  const turn = conversation.turns[1]!;
  const length = 8_000;
  const overall = alignSource(
    conversation.samples,
    received,
    { fromSample: (turn.startMs / 1_000) * 16_000, length },
    16_000,
  );
  const { lag, correlation } = alignStretch(
    conversation.samples,
    received,
    audio - length,
    length,
    overall.lag - 1_600,
    overall.lag + 16_000,
  );
  return { endMs: (audio - lag) / 16, lag, correlation };
}

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
