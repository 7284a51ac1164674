import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { syntheticSpeech } from '../sandbox/test-support/service-client';
import type { AppCore } from '../src/main/core/app-core';
import { createMemorySecretBox } from '../src/main/core/secrets/secret-box';
import { listAudioSpools, readRecoveredAudio, recoverAudioSpool } from '../src/main/core/spool/audio-spool';
import { loadSpoolKey } from '../src/main/core/spool/spool-key';
import { encodeAudioChunk, type EventName, type Results, type VerbName } from '../src/shared/contract';
import { callVerb, useBearerPartner } from './support/sandbox-partner';
import { createTestCore, testAppInfo } from './support/test-core';
import { createJsonFileStorage } from '../src/main/core/json-file-storage';
import { silentLogger } from '../src/main/core/ports';

/**
 * Every byte the service is to receive is first in the visit's encrypted spool on disk: after a
 * visit, the spool holds exactly what the service got (same SHA-256), marked delivered; a
 * discarded visit leaves nothing behind.
 */
let sandbox: Sandbox;
let core: AppCore;
const secrets = createMemorySecretBox();
const events: { event: string; payload: Record<string, unknown> }[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ asr: 'energy', minSpeechMs: 500 });
});
afterAll(() => sandbox.close());
afterEach(async () => core?.stop());

const call = <T = Record<string, unknown>>(verb: VerbName, payload?: unknown) =>
  callVerb<T>(core, verb, payload);

async function waitFor(event: EventName, match: (p: Record<string, unknown>) => boolean) {
  for (let i = 0; i < 1_500; i++) {
    const found = events.find((e) => e.event === event && match(e.payload));
    if (found) return found.payload;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no ${event}`);
}

async function startCore(dataDir?: string): Promise<void> {
  core = await createTestCore({
    secrets,
    recorderTiming: { autoPauseAfterMs: 1_000, captureStallMs: 5_000 },
    ...(dataDir
      ? {
          appInfo: testAppInfo(dataDir),
          settingsStorage: createJsonFileStorage(join(dataDir, 'settings.json'), silentLogger),
        }
      : {}),
  });
  events.length = 0;
  core.events.subscribe((event, payload) =>
    events.push({ event, payload: payload as Record<string, unknown> }),
  );
}

async function startVisit(
  options: { serviceUrl?: string; formItems?: unknown[] } = {},
): Promise<{ sessionId: string; formSessionId?: string; dataDir: string }> {
  await startCore();
  await useBearerPartner(core, options.serviceUrl ?? sandbox.url, 'dr-spool');
  await call('encounter.start', {
    kind: 'ambient',
    encounterId: 'spool1',
    ...(options.formItems ? { formItems: options.formItems } : {}),
  });
  const entry = (await call<{ entries: { sessionId: string; formSessionId?: string }[] }>('history.list'))
    .entries[0]!;
  const info = await call<{ dataDirectory: string }>('app.info');
  return { ...entry, dataDir: info.dataDirectory };
}

/** What the sandbox received for a session: byte count and SHA-256 of the PCM. */
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

async function serviceCopyAt(url: string, sessionId: string) {
  return (await (await fetch(`${url}/__sandbox/sessions/${sessionId}`)).json()) as {
    status: string;
    pcm_sha256: string;
    received_bytes: number;
    connections: number;
  };
}

/** The spool's audio and its manifest, read back as recovery would. */
async function spooledCopy(dataDir: string, sessionId: string) {
  const dir = join(dataDir, 'spool', sessionId);
  const key = await loadSpoolKey(secrets);
  const spooled = recoverAudioSpool(dir, key);
  const pcm = readRecoveredAudio(dir, key, spooled);
  return {
    manifest: spooled.manifest,
    bytes: pcm.length,
    sha256: createHash('sha256').update(pcm).digest('hex'),
  };
}

const historyEntries = async () =>
  (await call<{ entries: { sessionId: string; state: string; audioKept?: boolean }[] }>('history.list'))
    .entries;

const serviceCopy = (sessionId: string) => serviceCopyAt(sandbox.url, sessionId);

/** Chunks from a pattern (S speech, . quiet), numbered from `firstSeq`. */
function play(pattern: string, firstSeq = 0): void {
  for (const [index, c] of [...pattern].entries()) {
    const seq = firstSeq + index;
    const speech = c === 'S';
    const pcm = syntheticSpeech([{ speechMs: speech ? 100 : 0, silenceMs: speech ? 0 : 100 }], seq + 1);
    core.acceptChunk(encodeAudioChunk({ seq, capturedAt: seq * 100, pcm, speech }));
  }
}

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

  it('End pressed while the service is down, then the app stops: the next run finishes the visit by itself', async () => {
    // A service of its own, to stop and start again on the same port and data directory.
    const serviceData = mkdtempSync(join(tmpdir(), 'scribe-service-'));
    let service = await startSandbox({ asr: 'energy', minSpeechMs: 500, dataDir: serviceData });
    const port = Number(new URL(service.url).port);
    try {
      const { sessionId, dataDir } = await startVisit({ serviceUrl: service.url });
      play(`${'.'.repeat(5)}${'S'.repeat(20)}`);
      await waitFor('recorder.changed', (v) => v.state === 'streaming');
      await service.close();
      // Recording goes on offline; then End, with the service still away.
      play(`${'S'.repeat(15)}${'.'.repeat(10)}`, 25);
      await call('recorder.end');
      await waitFor('recorder.changed', (v) => String(v.reason ?? '').startsWith('Finishing when online'));
      await expect
        .poll(async () => (await historyEntries())[0]?.state, { timeout: 15_000 })
        .toBe('finishing');
      expect((await spooledCopy(dataDir, sessionId)).manifest.state).toBe('finishing');
      await core.stop();

      service = await startSandbox({ asr: 'energy', minSpeechMs: 500, dataDir: serviceData, port });
      await startCore(dataDir);
      // Nobody presses anything: the visit finishes by itself.
      const done = await waitFor('results.progress', (p) => p.sessionId === sessionId && p.done === true);
      expect(done.status).toBe('completed');
      const received = await serviceCopyAt(service.url, sessionId);
      const spooled = await spooledCopy(dataDir, sessionId);
      expect(spooled.bytes).toBe(50 * 3_200);
      expect(received.received_bytes).toBe(spooled.bytes);
      expect(received.pcm_sha256).toBe(spooled.sha256);
      expect(spooled.manifest.state).toBe('delivered');
      expect((await historyEntries())[0]).toMatchObject({ sessionId, state: 'done', audioKept: false });
    } finally {
      await service.close();
      rmSync(serviceData, { recursive: true, force: true });
    }
  });

  it('a visit goes only to the service and provider it was recorded for: a changed address or provider leaves it waiting, with its audio', async () => {
    // The service the visit is recorded for, stopped before End (so End leaves it finishing).
    const serviceData = mkdtempSync(join(tmpdir(), 'scribe-service-'));
    let service = await startSandbox({ asr: 'energy', minSpeechMs: 500, dataDir: serviceData });
    const port = Number(new URL(service.url).port);
    const other = await startSandbox({ asr: 'energy', minSpeechMs: 500 });
    try {
      const { sessionId, dataDir } = await startVisit({ serviceUrl: service.url });
      play(`${'.'.repeat(5)}${'S'.repeat(20)}`);
      await waitFor('recorder.changed', (v) => v.state === 'streaming');
      await service.close();
      await call('recorder.end');
      await expect
        .poll(async () => (await historyEntries())[0]?.state, { timeout: 15_000 })
        .toBe('finishing');
      expect((await spooledCopy(dataDir, sessionId)).manifest.deliverTo).toEqual({
        service: new URL(service.url).origin,
        partnerId: 'demo-bearer',
        providerId: 'dr-spool',
      });
      await core.stop();

      // The next run points at another service (Settings, or a policy the user can write).
      await startCore(dataDir);
      await useBearerPartner(core, other.url, 'dr-spool');
      await expect(call('history.finish', { sessionId })).rejects.toThrow(
        `This visit was recorded for dr-spool at 127.0.0.1:${port}. It is sent only there`,
      );
      // The same service, another provider: still not theirs.
      service = await startSandbox({ asr: 'energy', minSpeechMs: 500, dataDir: serviceData, port });
      await useBearerPartner(core, service.url, 'dr-other');
      await expect(call('history.finish', { sessionId })).rejects.toThrow(/recorded by another clinician/);
      core.wake(); // the maintenance that resumes finishing visits, now
      await new Promise((r) => setTimeout(r, 1_500));
      expect((await fetch(`${other.url}/__sandbox/sessions/${sessionId}`)).status).toBe(404);
      expect((await serviceCopyAt(service.url, sessionId)).status).not.toBe('completed');
      // Another provider on this laptop does not even see it (issue 29); its audio waits.
      expect((await historyEntries()).map((e) => e.sessionId)).not.toContain(sessionId);
      expect((await spooledCopy(dataDir, sessionId)).manifest.state).toBe('finishing');

      // Back as the provider it was recorded for: it finishes by itself, every byte once.
      await useBearerPartner(core, service.url, 'dr-spool');
      core.wake();
      const done = await waitFor('results.progress', (p) => p.sessionId === sessionId && p.done === true);
      expect(done.status).toBe('completed');
      const spooled = await spooledCopy(dataDir, sessionId);
      expect((await serviceCopyAt(service.url, sessionId)).pcm_sha256).toBe(spooled.sha256);
    } finally {
      await Promise.all([service.close(), other.close()]);
      rmSync(serviceData, { recursive: true, force: true });
    }
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
