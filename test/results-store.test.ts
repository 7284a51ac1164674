import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { syntheticSpeech } from '../sandbox/test-support/service-client';
import { encodeAudioChunk } from '../src/shared/contract';
import type { AppCore } from '../src/main/core/app-core';
import { bindAppEvents, createAppStore, type AppStore } from '../src/renderer/store/app-store';
import { inProcessApi } from './support/in-process-api';
import { chooseTestPin } from './support/sandbox-partner';
import { createTestCore } from './support/test-core';

/**
 * The results part of the renderer's store against the real core and a real sandbox: a visit with
 * a form goes through the service, the store shows the wait and then the note, transcript and
 * filled form, and the clinician's feedback on the form reaches the form-filling session.
 */
let sandbox: Sandbox;
let core: AppCore;

beforeAll(async () => {
  sandbox = await startSandbox({ asr: 'energy', minSpeechMs: 500 });
});
afterAll(() => sandbox.close());
afterEach(async () => core?.stop());

async function signedInStore(providerId: string) {
  core = await createTestCore({
    recorderTiming: { autoPauseAfterMs: 1_000, preRollMs: 600, captureStallMs: 5_000 },
  });
  const api = inProcessApi(core);
  const store = createAppStore(api);
  bindAppEvents(store, api);
  await api.call('settings.set', {
    service: { kind: 'url', baseUrl: sandbox.url },
    partnerId: 'demo-bearer',
    authModel: 'bearer',
    providerId,
    providerName: 'Dr Results',
    providerOrgId: 'clinic-9',
  });
  await api.call('secrets.setPartnerToken', { token: 'sandbox-bearer-partner-token' });
  await api.call('auth.signIn');
  await chooseTestPin(core);
  await store.getState().loadSettings();
  return { api, store };
}

/** 100 ms chunks: `speech` of them with speech, then a little silence, through the chunk channel. */
async function play(speech: number): Promise<void> {
  for (let seq = 0; seq < speech + 5; seq++) {
    const isSpeech = seq < speech;
    const pcm = syntheticSpeech([{ speechMs: isSpeech ? 100 : 0, silenceMs: isSpeech ? 0 : 100 }], seq + 1);
    core.acceptChunk(encodeAudioChunk({ seq, capturedAt: seq * 100, pcm, speech: isSpeech }));
    await new Promise((r) => setTimeout(r, 15));
  }
}

async function sandboxSession(id: string) {
  const reply = await fetch(`${sandbox.url}/__sandbox/sessions/${id}`);
  return (await reply.json()) as { feedback: { form_id: string; rating: number }[] };
}

function waitDone(store: AppStore) {
  return expect.poll(() => store.getState().results?.done, { timeout: 30_000 }).toBe(true);
}

describe('results in the store', () => {
  it('shows the wait, then the note and the form, and sends the form feedback to the form-filling session', async () => {
    const { api, store } = await signedInStore('dr-results');
    const view = await api.call('encounter.start', {
      kind: 'ambient',
      encounterId: 'resultsvisit1',
      context: { sections: ['CHIEF_COMPLAINT'] },
      formItems: [{ form_template_id: 'VITALS_ASSESSMENT' }],
    });
    await play(20);
    await store.getState().endRecording();
    // End starts the wait on this screen before main reports anything.
    expect(store.getState().endedAt).not.toBeNull();
    await expect.poll(() => store.getState().progress?.status, { timeout: 10_000 }).toBeDefined();
    expect(store.getState().progressAt).not.toBeNull();
    await waitDone(store);

    const results = store.getState().results!;
    expect(results).toMatchObject({ sessionId: view.sessionId, status: 'completed' });
    expect(results.summary?.length).toBe(1);
    expect(results.transcript?.length).toBeGreaterThan(0);
    expect(results.forms?.map((f) => f.form_id)).toEqual(['VITALS_ASSESSMENT']);
    const formSessionId = results.formSessionId!;
    expect(formSessionId).not.toBe(view.sessionId);
    // The templates give the table its title and corrections their types.
    await expect.poll(() => store.getState().formTemplates.length).toBeGreaterThan(0);
    expect(api.calls.filter((verb) => verb === 'results.get')).toHaveLength(1);

    // A rating of 0 is named and nothing is sent.
    const refused = await store.getState().sendFormFeedback('VITALS_ASSESSMENT', { rating: 0 });
    expect(refused).toBe(false);
    expect(store.getState().feedback.VITALS_ASSESSMENT).toEqual({
      state: 'failed',
      message: 'Rating must be 1 to 5.',
      key: 'rating',
    });
    expect(api.calls).not.toContain('forms.feedback');
    // Main refuses it the same way if it ever gets there.
    await expect(
      api.call('forms.feedback', {
        sessionId: formSessionId,
        formId: 'VITALS_ASSESSMENT',
        feedback: { rating: 0 },
      }),
    ).rejects.toThrow('Rating must be 1 to 5.');

    const sent = store.getState().sendFormFeedback('VITALS_ASSESSMENT', {
      rating: 4,
      comment: ' heart rate missed ',
      corrections: { heart_rate: '72', blood_pressure: '118/76', temperature: '' },
    });
    expect(store.getState().feedback.VITALS_ASSESSMENT?.state).toBe('sending');
    expect(await sent).toBe(true);
    expect(store.getState().feedback.VITALS_ASSESSMENT).toEqual({ state: 'sent' });

    // The service holds it on the form-filling session, typed as the template says; the note's
    // session has none.
    const record = await sandboxSession(formSessionId);
    expect(record.feedback).toEqual([
      {
        form_id: 'VITALS_ASSESSMENT',
        rating: 4,
        comment: 'heart rate missed',
        field_corrections: [
          { id: 'blood_pressure', value: '118/76' },
          { id: 'heart_rate', value: 72 },
        ],
        at: expect.any(Number),
      },
    ]);
    expect((await sandboxSession(view.sessionId!)).feedback).toEqual([]);
  });

  it('says why a visit with no speech made no note, and Record again clears the screen', async () => {
    const { api, store } = await signedInStore('dr-results-silent');
    await api.call('encounter.start', { kind: 'ambient', encounterId: 'resultsvisit2' });
    await play(0);
    await store.getState().endRecording();
    await waitDone(store);
    expect(store.getState().results).toMatchObject({ status: 'skipped' });
    expect(store.getState().results?.problem).toMatch(/no usable speech.*record the visit again/);
    expect(store.getState().results?.summary).toBeUndefined();
    // Nothing to rate on a visit without forms.
    expect(await store.getState().sendFormFeedback('VITALS_ASSESSMENT', { rating: 5 })).toBe(false);
    expect(api.calls).not.toContain('forms.feedback');

    store.getState().clearResults();
    expect(store.getState()).toMatchObject({ results: null, progress: null, endedAt: null, feedback: {} });
  });

  it('reports on another visit (one finishing offline while the next records) leave the card alone', async () => {
    const { store } = await signedInStore('dr-other');
    store.getState().expectResults('visit-a');
    store.getState().receiveProgress({ sessionId: 'visit-b', status: 'completed', elapsedMs: 1, done: true });
    expect(store.getState().progress).toBeNull();
    expect(store.getState().results).toBeNull();
    store
      .getState()
      .receiveProgress({ sessionId: 'visit-a', status: 'offline', elapsedMs: 1, done: false, offline: true });
    expect(store.getState().progress).toMatchObject({ sessionId: 'visit-a', offline: true });
  });
});
