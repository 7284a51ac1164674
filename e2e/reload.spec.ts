import { createHash } from 'node:crypto';
import { alignSource, readConversation } from './support/audio-analysis';
import type { SentChunk } from './support/captured-audio';
import { expect, startVisit, test, useExternalService } from './support/external-service';
import { untilRecorded } from './support/workspace';

/**
 * Issue 14, "the renderer can go away without the visit noticing": the page reloads at 0:10 of a
 * recording (browser mode; in Electron, View ▸ Reload or a renderer crash). The core keeps the
 * visit recording, the new page asks recorder.state, rejoins with recorder.attach, opens the same
 * microphone again and carries on; the clinician is told. The sandbox runs as its own process.
 *
 * The gap is measured on the capture's own timing: each page's chunks, sent as they are captured
 * (100 ms of audio each), give that page's capture clock (the lower envelope of send time −
 * audio sent, as in support/page-sends.ts); the gap is the time from the end of the old page's
 * last chunk to the start of the new page's first. Chromium's fake microphone starts its file
 * again on every getUserMedia (measured: the new page's audio lines up with the file's start), so
 * the file cannot tell how much was missed; the clocks can.
 */
const WAV = 'e2e/fixtures/conversation.wav';
const conversation = readConversation(WAV, 'e2e/fixtures/conversation.turns.json');

test.use({ fakeMicrophone: WAV });
test.skip(({ target }) => target !== 'browser', 'Browser mode can reload the page and read its chunks.');

/** Where a chunk list's capture started on the runner's clock (ms), from its fastest delivery. */
function captureStart(chunks: SentChunk[]): number {
  let end = 0;
  let start = Infinity;
  for (const chunk of chunks) {
    end += chunk.pcm.byteLength / 32;
    start = Math.min(start, chunk.sentAt - end);
  }
  return start;
}

test('the page reloads at 0:10 of a recording: the visit carries on, the gap is short, the note arrives', async ({
  scribe,
  sandbox,
  watched,
}) => {
  test.setTimeout(180_000);
  const { page } = scribe;
  const { audio } = watched;
  await useExternalService(page, sandbox.url, 'dr-reload');
  await startVisit(page, 'reload1');
  const { id } = await sandbox.sessionOf('reload1');

  await untilRecorded(page, 10, 60_000);
  await page.reload();

  // The new page knows the visit, says what happened, and records on.
  await expect(page.getByTestId('recorder-state')).toHaveText(/^Recording/, { timeout: 15_000 });
  await expect(page.getByTestId('rejoined-notice')).toHaveText(
    'The window reloaded; the recording carried on.',
  );
  await expect(page.getByTestId('encounter-id')).toHaveText('Encounter reload1');
  await expect(page.getByTestId('microphone-name')).toContainText('Microphone:');
  await untilRecorded(page, 20, 60_000);
  await page.getByRole('button', { name: 'End visit' }).click();
  await expect(page.getByTestId('results-status')).toHaveText('The note is ready.', { timeout: 90_000 });

  // Two captures, each numbered from 0 without gaps; together, exactly what the service has.
  const restart = audio.chunks.findIndex((c, k) => k > 0 && c.seq === 0);
  expect(restart, 'the new page’s first chunk').toBeGreaterThan(0);
  const before = audio.chunks.slice(0, restart);
  const after = audio.chunks.slice(restart);
  expect(before.map((c) => c.seq)).toEqual(before.map((_, k) => k));
  expect(after.map((c) => c.seq)).toEqual(after.map((_, k) => k));
  const session = await sandbox.session(id);
  expect(session.status).toBe('completed');
  // The service's audio is the old page's chunks, then the new page's, byte for byte. Between them
  // it may hold a chunk or two more: ones the old page sent as it unloaded, which reached the core
  // but which DevTools no longer reported (its frame events stop with the page). Those only shorten
  // the gap, so the gap below is measured without them.
  const wav = Buffer.from(
    await (await fetch(`${sandbox.url}/__sandbox/sessions/${id}/audio.wav`)).arrayBuffer(),
  );
  const servicePcm = wav.subarray(44);
  expect(servicePcm.byteLength, 'bytes in the service’s audio.wav').toBe(session.received_bytes);
  const oldPcm = Buffer.concat(before.map((c) => c.pcm));
  const newPcm = Buffer.concat(after.map((c) => c.pcm));
  const unseen = servicePcm.byteLength - oldPcm.byteLength - newPcm.byteLength;
  expect(servicePcm.subarray(0, oldPcm.byteLength).equals(oldPcm), 'the old page’s audio, first').toBe(true);
  expect(
    servicePcm.subarray(servicePcm.byteLength - newPcm.byteLength).equals(newPcm),
    'the new page’s, last',
  ).toBe(true);
  expect(unseen % 3_200, 'whole chunks sent while the old page unloaded').toBe(0);
  expect(unseen / 3_200).toBeLessThanOrEqual(2);
  // New audio, not a chunk sent twice.
  const between = servicePcm.subarray(oldPcm.byteLength, oldPcm.byteLength + unseen);
  for (let at = 0; at < unseen; at += 3_200)
    expect(
      before.some((c) => c.pcm.equals(between.subarray(at, at + 3_200))),
      'a repeated chunk',
    ).toBe(false);
  expect(session.pcm_sha256).toBe(createHash('sha256').update(servicePcm).digest('hex'));

  // Never paused: the gap was neither a stall nor silence to pause on.
  const events = session.timeline.map((e) => e.type);
  expect(events).not.toContain('PAUSE');
  const shown = watched.states.map((s) => s.state);
  expect(shown).not.toContain('auto-paused');
  expect(shown).not.toContain('failed');

  // The gap: from the old page's last captured sample to the new page's first.
  const oldEnd = captureStart(before) + before.reduce((ms, c) => ms + c.pcm.byteLength / 32, 0);
  const gapMs = captureStart(after) - oldEnd;
  // The new page's audio is the file from its start again (the fake microphone restarted).
  const newAudio = Buffer.concat(after.map((c) => c.pcm));
  const received = new Int16Array(
    newAudio.buffer.slice(newAudio.byteOffset, newAudio.byteOffset + newAudio.byteLength),
  );
  const turn = conversation.turns[0]!;
  const { lag, correlation } = alignSource(
    conversation.samples,
    received,
    { fromSample: (turn.startMs / 1_000) * 16_000, length: 16_000 },
    16_000,
  );
  console.log(
    `reload: ${before.length} chunks before (+${unseen / 3_200} sent while unloading), ${after.length} after; gap ${gapMs.toFixed(0)} ms of audio not captured; ` +
      `new page's audio vs the file: lag ${lag} samples, r ${correlation.toFixed(3)}; states ${shown.join(' → ')}`,
  );
  expect(gapMs, 'audio missing at the service across the reload (ms)').toBeLessThanOrEqual(1_500);
  expect(gapMs).toBeGreaterThan(0);
});
