import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import type { AppCore } from '../src/main/core/app-core';
import { createAppStore, bindAppEvents } from '../src/renderer/store/app-store';
import { inProcessApi } from './support/in-process-api';
import { callVerb, useBearerPartner } from './support/sandbox-partner';
import { syntheticSpeech } from '../sandbox/test-support/service-client';
import { encodeAudioChunk } from '../src/shared/contract';
import { createTestCore } from './support/test-core';

/**
 * The errors a clinician can meet when the documentation service fails them reach the screen as
 * one sentence with the next step, never as "something went wrong inside the app".
 */
let sandbox: Sandbox;
let core: AppCore;
beforeAll(async () => {
  sandbox = await startSandbox({ asr: 'energy' });
});
afterAll(() => sandbox.close());
afterEach(async () => core?.stop());

async function storeFor(baseUrl: string) {
  core = await createTestCore();
  const api = inProcessApi(core);
  await useBearerPartner(core, baseUrl, 'dr-errors', { firstRunComplete: true });
  const store = createAppStore(api);
  bindAppEvents(store, api);
  await store.getState().loadSettings();
  // A real service: the encounter ID is the EHR's, typed (issue 37: none is made up outside the demo).
  store.getState().editDraft({ encounterId: 'err1' });
  return store;
}

async function fault(body: unknown): Promise<void> {
  const reply = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(reply.status).toBe(200);
}

describe('service failures, as the clinician reads them', () => {
  it('an unreachable service: the visit does not start, and Start again is the next step', async () => {
    // Reachable at the first sign-in, where the clinician chose their PIN; gone by the Start.
    const gone = await startSandbox({ asr: 'energy' });
    const store = await storeFor(gone.url);
    await gone.close();
    await store.getState().startRecording();
    expect(store.getState().recordingError).toBe(
      'The documentation service cannot be reached, so the visit did not start. Check the network connection, then press Start recording again.',
    );
    expect(store.getState().recorder).toBeNull();
    await store.getState().loadTemplates();
    expect(store.getState().templatesError).toBe(
      'The documentation service cannot be reached. Check the network connection, then try again.',
    );
  });

  it(
    'a service answering 500: a sentence that says to try again and when to tell IT',
    { timeout: 60_000 },
    async () => {
      const store = await storeFor(sandbox.url);
      await store.getState().loadTemplates();
      expect(store.getState().templates?.length).toBeGreaterThan(0);
      await fault({ action: 'fail_rest', count: 1000 });
      try {
        await store.getState().startRecording();
      } finally {
        await fault({ action: 'clear' });
      }
      expect(store.getState().recordingError).toBe(
        'The documentation service had a problem starting the visit. Press Start recording again in a moment; if it keeps happening, tell your IT admin.',
      );
    },
  );

  it(
    'a service failing after End: the visit waits, saved, says so, and finishes by itself when the service recovers; a second End changes nothing',
    { timeout: 90_000 },
    async () => {
      core = await createTestCore();
      await useBearerPartner(core, sandbox.url, 'dr-end');
      const progress: { sessionId: string; status: string; done: boolean; offline?: boolean }[] = [];
      core.events.subscribe((event, payload) => {
        if (event === 'results.progress') progress.push(payload as (typeof progress)[number]);
      });
      const view = await callVerb<{ sessionId: string }>(core, 'encounter.start', {
        kind: 'ambient',
        encounterId: 'end1',
      });
      for (let seq = 0; seq < 30; seq++) {
        // Turns with pauses between them: the sandbox's energy recogniser needs quiet to find speech.
        const speaking = seq % 10 < 7;
        const pcm = syntheticSpeech(
          [{ speechMs: speaking ? 100 : 0, silenceMs: speaking ? 0 : 100 }],
          seq + 1,
        );
        core.acceptChunk(encodeAudioChunk({ seq, capturedAt: seq * 100, pcm, speech: true }));
      }
      const historyState = async () =>
        (
          await callVerb<{ entries: { sessionId: string; state: string }[] }>(core, 'history.list')
        ).entries.find((e) => e.sessionId === view.sessionId)?.state;
      await fault({ action: 'fail_rest', count: 1000 });
      try {
        await callVerb(core, 'recorder.end');
        await callVerb(core, 'recorder.end');
        await expect.poll(() => progress.find((p) => p.offline), { timeout: 45_000 }).toBeTruthy();
        expect(await historyState()).toBe('finishing');
        expect(progress.find((p) => p.done)).toBeUndefined();
      } finally {
        await fault({ action: 'clear' });
      }
      await expect.poll(() => progress.find((p) => p.done), { timeout: 60_000 }).toBeTruthy();
      expect(progress.filter((p) => p.done)).toEqual([
        expect.objectContaining({ sessionId: view.sessionId, status: 'completed' }),
      ]);
      const results = await callVerb<{ status: string; problem?: string }>(core, 'results.get', {
        sessionId: view.sessionId,
      });
      expect(results).toMatchObject({ status: 'completed' });
      expect(results.problem).toBeUndefined();
      expect(await historyState()).toBe('done');
    },
  );
});
