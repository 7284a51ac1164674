import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { syntheticSpeech } from '../sandbox/test-support/service-client';
import type { AppCore } from '../src/main/core/app-core';
import { DEFAULT_RECORDER_TIMING } from '../src/main/core/recorder/recorder-types';
import { encodeAudioChunk, type VerbName } from '../src/shared/contract';
import { DEFAULT_SETTINGS } from '../src/shared/settings';
import { callVerb, useBearerPartner } from './support/sandbox-partner';
import { createTestCore } from './support/test-core';

/**
 * The auto-pause delay in Settings reaches the recorder of each new encounter: the service gets
 * exactly the audio up to that much silence, then PAUSE.
 */
const CHUNK_BYTES = 3_200;
let sandbox: Sandbox;
let core: AppCore;

beforeAll(async () => {
  sandbox = await startSandbox({ asr: 'energy' });
});
afterAll(() => sandbox.close());
afterEach(async () => core?.stop());

const call = <T = Record<string, unknown>>(verb: VerbName, payload?: unknown) =>
  callVerb<T>(core, verb, payload);

async function sandboxSession(id: string) {
  return (await (await fetch(`${sandbox.url}/__sandbox/sessions/${id}`)).json()) as {
    received_bytes: number;
    timeline: { type: string }[];
  };
}

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Records 1 s of speech then 25 s of silence; returns the audio the service had at PAUSE. */
async function bytesBeforePause(settings: Record<string, unknown>, testTiming = {}): Promise<number> {
  core = await createTestCore({ recorderTiming: { captureStallMs: 60_000, ...testTiming } });
  const views: { state: string }[] = [];
  core.events.subscribe((event, payload) => {
    if (event === 'recorder.changed') views.push(payload as { state: string });
  });
  await useBearerPartner(core, sandbox.url, 'dr-pause', settings);
  const view = await call<{ sessionId: string }>('encounter.start', {
    kind: 'ambient',
    encounterId: 'pause1',
  });
  await until(async () => (views.some((v) => v.state === 'streaming') ? true : undefined), 'streaming');
  const pattern = `${'S'.repeat(10)}${'.'.repeat(250)}`;
  for (const [seq, c] of [...pattern].entries()) {
    const speech = c === 'S';
    const pcm = syntheticSpeech([{ speechMs: speech ? 100 : 0, silenceMs: speech ? 0 : 100 }], seq + 1);
    core.acceptChunk(encodeAudioChunk({ seq, capturedAt: seq * 100, pcm, speech }));
    if (views.some((v) => v.state === 'auto-paused')) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  await until(async () => {
    const session = await sandboxSession(view.sessionId);
    return session.timeline.some((e) => e.type === 'PAUSE') ? session : undefined;
  }, 'PAUSE at the service');
  // The service takes a backlog in at up to 4× real time, so audio sent before the PAUSE may still
  // be arriving when the PAUSE is logged: read once nothing more has come for half a second (the
  // recorder sends nothing while paused).
  let received = -1;
  await until(async () => {
    const now = (await sandboxSession(view.sessionId)).received_bytes;
    if (now === received) return true;
    received = now;
    await new Promise((r) => setTimeout(r, 500));
    return undefined;
  }, 'the audio before PAUSE to arrive');
  await call('recorder.cancel');
  return received;
}

describe('the auto-pause delay from Settings', () => {
  it('defaults to the recorder’s own delay', () => {
    expect(DEFAULT_SETTINGS.autoPauseAfterMs).toBe(DEFAULT_RECORDER_TIMING.autoPauseAfterMs);
  });

  it('pauses after that much silence: 2 s, then 6 s', async () => {
    // 1 s of speech, then the silence up to the delay (the chunk that completes it is sent).
    expect(await bytesBeforePause({ autoPauseAfterMs: 2_000 })).toBe((10 + 20) * CHUNK_BYTES);
    await core.stop();
    expect(await bytesBeforePause({ autoPauseAfterMs: 6_000 })).toBe((10 + 60) * CHUNK_BYTES);
  });

  it('a test’s own recorder timing still wins over the setting', async () => {
    expect(await bytesBeforePause({ autoPauseAfterMs: 6_000 }, { autoPauseAfterMs: 1_000 })).toBe(
      (10 + 10) * CHUNK_BYTES,
    );
  });
});
