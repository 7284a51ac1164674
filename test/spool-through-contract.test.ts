import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listAudioSpools, readRecoveredAudio, recoverAudioSpool } from '../src/main/core/spool/audio-spool';
import { loadSpoolKey } from '../src/main/core/spool/spool-key';
import { useBearerPartner } from './support/sandbox-partner';
import {
  call,
  core,
  historyEntries,
  play,
  sandbox,
  secrets,
  serviceCopy,
  startCore,
  startVisit,
  useSpoolSandbox,
  waitFor,
} from './support/spool-visit';

/**
 * Every byte the service is to receive is first in the visit's encrypted spool on disk: after a
 * visit, the spool holds exactly what the service got (same SHA-256), marked delivered; a
 * discarded visit leaves nothing behind. What the next run does with a visit the app stopped in is
 * in spool-through-contract-recovery.test.ts, -no-ack.test.ts (a service without ACK) and
 * -offline.test.ts (End while the service is down; the service and provider it is for).
 */
useSpoolSandbox();

describe('the spool behind a visit', () => {
  it('holds exactly the audio the service received, and is marked delivered with the note', async () => {
    const { sessionId, dataDir } = await startVisit();
    play(`${'.'.repeat(5)}${'S'.repeat(20)}${'.'.repeat(15)}${'S'.repeat(10)}${'.'.repeat(5)}`);
    await call('recorder.end');
    const done = await waitFor('results.progress', (p) => p.sessionId === sessionId && p.done === true);
    expect(done.status).toBe('completed');

    const received = await serviceCopy(sessionId);
    const dir = join(dataDir, 'spool', sessionId);
    const key = await loadSpoolKey(secrets);
    const spooled = recoverAudioSpool(dir, key);
    expect(spooled.problems).toEqual([]);
    const pcm = readRecoveredAudio(dir, key, spooled);
    expect(pcm.length).toBe(received.received_bytes);
    expect(createHash('sha256').update(pcm).digest('hex')).toBe(received.pcm_sha256);
    expect(spooled.manifest).toMatchObject({ encounterId: 'spool1', state: 'delivered' });
    expect(spooled.manifest.ackedOffset).toBe(received.received_bytes);
  });

  it('a discarded visit leaves no audio behind', async () => {
    const { sessionId, dataDir } = await startVisit();
    play('S'.repeat(10));
    expect(existsSync(join(dataDir, 'spool', sessionId))).toBe(true);
    await call('recorder.cancel');
    expect(existsSync(join(dataDir, 'spool', sessionId))).toBe(false);
    expect(listAudioSpools(join(dataDir, 'spool'))).toEqual([]);
  });

  it('two Starts at once make one visit; the second is refused', async () => {
    await startCore();
    await useBearerPartner(core, sandbox.url, 'dr-spool');
    const outcomes = await Promise.allSettled([
      call('encounter.start', { kind: 'ambient', encounterId: 'twice1' }),
      call('encounter.start', { kind: 'ambient', encounterId: 'twice1' }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(String(refused.reason)).toMatch('A recording is already running');
    expect(await historyEntries()).toHaveLength(1);
    await call('recorder.cancel');
  });
});
