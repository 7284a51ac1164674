import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecoveredAudio, recoverAudioSpool } from '../src/main/core/spool/audio-spool';
import { loadSpoolKey } from '../src/main/core/spool/spool-key';
import type { Results } from '../src/shared/contract';
import {
  call,
  core,
  historyEntries,
  play,
  secrets,
  serviceCopy,
  spooledCopy,
  startCore,
  startVisit,
  useSpoolSandbox,
  waitFor,
} from './support/spool-visit';

/**
 * A visit the app stopped in the middle of (as after a crash) is Interrupted in the next run, from
 * its spool: Finish sends it, every byte once, with its visit clock, even after its manifest was
 * cut short; Discard deletes its audio; a visit with forms is one entry for both sessions.
 */
useSpoolSandbox();

describe('the spool behind a visit', () => {
  it('a visit the app stopped in the middle of is finished by the next run: same session, every byte once', async () => {
    const { sessionId, dataDir } = await startVisit();
    play(`${'.'.repeat(5)}${'S'.repeat(30)}`);
    // Once the service has part of it, the app stops without End (as after a crash, the manifest
    // still says "recording").
    await waitFor('recorder.changed', (v) => v.state === 'streaming');
    await core.stop();

    await startCore(dataDir);
    const history = await call<{ entries: { sessionId: string; state: string }[] }>('history.list');
    expect(history.entries).toEqual([expect.objectContaining({ sessionId, state: 'interrupted' })]);
    await call('history.finish', { sessionId });
    const done = await waitFor('results.progress', (p) => p.sessionId === sessionId && p.done === true);
    expect(done.status).toBe('completed');

    const received = await serviceCopy(sessionId);
    const dir = join(dataDir, 'spool', sessionId);
    const key = await loadSpoolKey(secrets);
    const spooled = recoverAudioSpool(dir, key);
    const pcm = readRecoveredAudio(dir, key, spooled);
    expect(pcm.length).toBe(35 * 3_200);
    expect(received.received_bytes).toBe(pcm.length);
    expect(received.pcm_sha256).toBe(createHash('sha256').update(pcm).digest('hex'));
    expect(spooled.manifest.state).toBe('delivered');
    const results = await call<{ summary: unknown[] }>('results.get', { sessionId });
    expect(results.summary.length).toBeGreaterThan(0);
    expect((await call<{ entries: { state: string }[] }>('history.list')).entries[0]?.state).toBe('done');
    // Nothing is left to finish, and asking again says so.
    await expect(call('history.finish', { sessionId })).rejects.toThrow(
      'This visit has nothing left to finish.',
    );
  });

  it('a visit finished by the next run keeps its visit clock, so its transcript shows the times the clinician saw', async () => {
    const { sessionId, dataDir } = await startVisit();
    play('S'.repeat(10));
    // Only an open link is paused: from here 1 s of silence pauses, and what follows is held back.
    await waitFor('recorder.changed', (v) => v.state === 'streaming');
    // Chunks 10–19 sent, PAUSE; 20–29 held back, the last 600 ms (24–29) sent as pre-roll with 30.
    play(`${'.'.repeat(20)}${'S'.repeat(20)}`, 10);
    await core.stop();

    await startCore(dataDir);
    await call('history.finish', { sessionId });
    const done = await waitFor('results.progress', (p) => p.sessionId === sessionId && p.done === true);
    expect(done.status).toBe('completed');
    const results = await call<Results>('results.get', { sessionId });
    expect(results.transcript?.length).toBeGreaterThan(0);
    expect(results.visitClock).toEqual([
      { sentStartMs: 0, visitStartMs: 0 },
      { sentStartMs: 2_000, visitStartMs: 2_400 },
    ]);
  });

  it('a visit whose manifest was truncated is still Interrupted, and Finish makes its note with every byte once', async () => {
    const { sessionId, dataDir } = await startVisit();
    play(`${'.'.repeat(5)}${'S'.repeat(30)}`);
    await waitFor('recorder.changed', (v) => v.state === 'streaming');
    await core.stop();
    // The disk lost the end of the manifest's last write: what is left is not JSON.
    const manifestPath = join(dataDir, 'spool', sessionId, 'manifest.json');
    const whole = readFileSync(manifestPath);
    writeFileSync(manifestPath, whole.subarray(0, Math.floor(whole.length / 2)));

    await startCore(dataDir);
    expect(await historyEntries()).toEqual([
      expect.objectContaining({ sessionId, state: 'interrupted', audioKept: true }),
    ]);
    await call('history.finish', { sessionId });
    const done = await waitFor('results.progress', (p) => p.sessionId === sessionId && p.done === true);
    expect(done.status).toBe('completed');
    // The service has exactly the captured audio (it said where to resume: nothing twice).
    const received = await serviceCopy(sessionId);
    const spooled = await spooledCopy(dataDir, sessionId);
    expect(spooled.bytes).toBe(35 * 3_200);
    expect(received.received_bytes).toBe(spooled.bytes);
    expect(received.pcm_sha256).toBe(spooled.sha256);
    expect(spooled.manifest).toMatchObject({ encounterId: 'spool1', state: 'delivered' });
    // The visit clock was in the lost manifest only: the transcript keeps the service's times.
    expect((await call<Results>('results.get', { sessionId })).visitClock).toBeUndefined();
  });

  it('an interrupted visit can be discarded instead: its audio is deleted', async () => {
    const { sessionId, dataDir } = await startVisit();
    play('S'.repeat(5));
    await core.stop();
    await startCore(dataDir);
    await call('history.discard', { sessionId });
    expect(existsSync(join(dataDir, 'spool', sessionId))).toBe(false);
    expect((await call<{ entries: { state: string }[] }>('history.list')).entries[0]?.state).toBe(
      'cancelled',
    );
  });

  it('an interrupted visit with forms is one entry; Finish sends both sessions, and Discard deletes both', async () => {
    const forms = [{ form_template_id: 'VITALS_ASSESSMENT' }];
    const first = await startVisit({ formItems: forms });
    expect(first.formSessionId).toBeDefined();
    play(`${'.'.repeat(5)}${'S'.repeat(25)}${'.'.repeat(5)}`);
    await waitFor('recorder.changed', (v) => v.state === 'streaming');
    await core.stop();

    await startCore(first.dataDir);
    expect(await historyEntries()).toEqual([
      expect.objectContaining({ sessionId: first.sessionId, state: 'interrupted', audioKept: true }),
    ]);
    // Twice, as a double click would: one delivery.
    await Promise.all([
      call('history.finish', { sessionId: first.sessionId }),
      call('history.finish', { sessionId: first.sessionId }),
    ]);
    await expect(call('history.discard', { sessionId: first.sessionId })).rejects.toThrow(
      /being sent to the service right now/,
    );
    const done = await waitFor('results.progress', (p) => p.sessionId === first.sessionId && p.done === true);
    expect(done.status).toBe('completed');
    for (const sessionId of [first.sessionId, first.formSessionId!]) {
      const received = await serviceCopy(sessionId);
      const spooled = await spooledCopy(first.dataDir, sessionId);
      expect(spooled.bytes).toBe(35 * 3_200);
      expect(received.pcm_sha256).toBe(spooled.sha256);
      expect(spooled.manifest.state).toBe('delivered');
    }
    const results = await call<{ formSessionId?: string }>('results.get', { sessionId: first.sessionId });
    expect(results.formSessionId).toBe(first.formSessionId);

    // Another visit with forms, interrupted and discarded: neither session's audio stays.
    await core.stop();
    const second = await startVisit({ formItems: forms });
    play('S'.repeat(5));
    await core.stop();
    await startCore(second.dataDir);
    await call('history.discard', { sessionId: second.sessionId });
    expect(existsSync(join(second.dataDir, 'spool', second.sessionId))).toBe(false);
    expect(existsSync(join(second.dataDir, 'spool', second.formSessionId!))).toBe(false);
  });
});
