import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { syntheticSpeech } from '../sandbox/test-support/service-client';
import type { AppCore } from '../src/main/core/app-core';
import { createMemorySecretBox } from '../src/main/core/secrets/secret-box';
import { listAudioSpools, readRecoveredAudio, recoverAudioSpool } from '../src/main/core/spool/audio-spool';
import { loadSpoolKey } from '../src/main/core/spool/spool-key';
import { encodeAudioChunk, type EventName, type VerbName } from '../src/shared/contract';
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

async function startVisit(): Promise<{ sessionId: string; dataDir: string }> {
  await startCore();
  await useBearerPartner(core, sandbox.url, 'dr-spool');
  const view = await call<{ sessionId: string }>('encounter.start', {
    kind: 'ambient',
    encounterId: 'spool1',
  });
  const info = await call<{ dataDirectory: string }>('app.info');
  return { sessionId: view.sessionId, dataDir: info.dataDirectory };
}

/** What the sandbox received for a session: byte count and SHA-256 of the PCM. */
async function serviceCopy(sessionId: string) {
  return (await (await fetch(`${sandbox.url}/__sandbox/sessions/${sessionId}`)).json()) as {
    pcm_sha256: string;
    received_bytes: number;
  };
}

function play(pattern: string): void {
  for (const [seq, c] of [...pattern].entries()) {
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
});
