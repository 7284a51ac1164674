import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../sandbox/server';
import {
  call,
  core,
  historyEntries,
  play,
  serviceCopyAt,
  spooledCopy,
  startCore,
  startVisit,
  useSpoolSandbox,
  waitFor,
} from './support/spool-visit';

/**
 * The next run against a service without ACK: it resumes where the service was known to be, and
 * with no acknowledged offset left (a rebuilt manifest) sends the visit again from its start.
 */
useSpoolSandbox();

/**
 * 3.5 s of a visit (0.5 s of silence, then speech) to the service at `url`; once the service has
 * read all of it (its pongs said so), the app stops without End, as after a crash.
 */
async function recordUntilServiceHasAll(url: string): Promise<{ sessionId: string; dataDir: string }> {
  const visit = await startVisit({ serviceUrl: url });
  play(`${'.'.repeat(5)}${'S'.repeat(30)}`);
  for (let i = 0; (await serviceCopyAt(url, visit.sessionId)).received_bytes < 35 * 3_200; i++) {
    if (i > 500) throw new Error('the service never got the audio');
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 200));
  await core.stop();
  return visit;
}

describe('the spool behind a visit', () => {
  it('against a service without ACK, the next run resumes where the service was known to be, not from the start', async () => {
    const plain = await startSandbox({ asr: 'energy', minSpeechMs: 500, ack: false });
    try {
      const { sessionId, dataDir } = await recordUntilServiceHasAll(plain.url);

      await startCore(dataDir);
      await call('history.finish', { sessionId });
      const done = await waitFor('results.progress', (p) => p.sessionId === sessionId && p.done === true);
      expect(done.status).toBe('completed');
      // Nothing sent again: resuming from 0, as a new stream would without the spool's note, would
      // have doubled the visit.
      const received = await serviceCopyAt(plain.url, sessionId);
      const spooled = await spooledCopy(dataDir, sessionId);
      expect(received.connections).toBe(2);
      expect(received.received_bytes).toBe(spooled.bytes);
      expect(received.pcm_sha256).toBe(spooled.sha256);
    } finally {
      await core.stop();
      await plain.close();
    }
  });

  it('against a service without ACK, a rebuilt manifest knows no acknowledged offset: the visit is sent again from its start, and finishes with nothing lost', async () => {
    const plain = await startSandbox({ asr: 'energy', minSpeechMs: 500, ack: false });
    try {
      const { sessionId, dataDir } = await recordUntilServiceHasAll(plain.url);
      const manifestPath = join(dataDir, 'spool', sessionId, 'manifest.json');
      writeFileSync(manifestPath, readFileSync(manifestPath).subarray(0, 20));

      await startCore(dataDir);
      expect(await historyEntries()).toEqual([expect.objectContaining({ sessionId, state: 'interrupted' })]);
      await call('history.finish', { sessionId });
      const done = await waitFor('results.progress', (p) => p.sessionId === sessionId && p.done === true);
      expect(done.status).toBe('completed');
      // docs/reliability.md: the service has the visit twice, the second copy whole.
      const received = await serviceCopyAt(plain.url, sessionId);
      const spooled = await spooledCopy(dataDir, sessionId);
      expect(spooled.bytes).toBe(35 * 3_200);
      expect(received.received_bytes).toBe(2 * spooled.bytes);
      const audio = Buffer.from(
        await (await fetch(`${plain.url}/__sandbox/sessions/${sessionId}/audio.wav`)).arrayBuffer(),
      ).subarray(44);
      const half = (from: number) =>
        createHash('sha256')
          .update(audio.subarray(from, from + spooled.bytes))
          .digest('hex');
      expect(half(0)).toBe(spooled.sha256);
      expect(half(spooled.bytes)).toBe(spooled.sha256);
    } finally {
      await core.stop();
      await plain.close();
    }
  });
});
