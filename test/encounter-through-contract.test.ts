import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { syntheticSpeech } from '../sandbox/test-support/service-client';
import { encodeAudioChunk, type EventName, type Results, type VerbName } from '../src/shared/contract';
import { msFromOffset } from '../src/shared/service';
import { toVisitMs } from '../src/shared/visit-clock';
import type { AppCore } from '../src/main/core/app-core';
import { chooseTestPin } from './support/sandbox-partner';
import { createTestCore } from './support/test-core';
import { headlessBrowser } from '../src/main/core/auth/testing/headless-browser';

/**
 * The main-process core driven through the contract alone (the same router both transports use),
 * against a real sandbox over sockets: sign in with each partner model, record an encounter with
 * automatic pause/resume and a dropped connection, and get the note, transcript and forms.
 */
const BEARER_TOKEN = 'sandbox-bearer-partner-token';
let sandbox: Sandbox;
let core: AppCore;
let seen: { event: string; payload: unknown }[];
let replies: unknown[];

beforeAll(async () => {
  sandbox = await startSandbox({ asr: 'energy', minSpeechMs: 500 });
});
afterAll(() => sandbox.close());

async function newCore(
  openExternal?: (url: string) => Promise<void>,
  resultsPolling?: { firstDelayMs: number; maxDelayMs: number },
): Promise<AppCore> {
  const created = await createTestCore({
    ...(openExternal ? { openExternal } : {}),
    ...(resultsPolling ? { resultsPolling } : {}),
    // Shrunk like the sandbox's time scale: pause after 1 s of silence, keep 600 ms of pre-roll.
    recorderTiming: { autoPauseAfterMs: 1_000, preRollMs: 600, captureStallMs: 5_000 },
  });
  seen = [];
  replies = [];
  created.events.subscribe((event, payload) => seen.push({ event, payload }));
  return created;
}
afterEach(async () => core?.stop());

async function call<T = Record<string, unknown>>(verb: VerbName, payload?: unknown): Promise<T> {
  const result = await core.router.dispatch(verb, payload);
  replies.push(result);
  if (!result.ok) throw new Error(`${verb}: ${result.error.message}`);
  return result.value as T;
}

/** Points the core at this file's sandbox as a partner-hosted service URL, with these settings. */
function useTestSandbox(partner: Record<string, unknown>): Promise<unknown> {
  return call('settings.set', { service: { kind: 'url', baseUrl: sandbox.url }, ...partner });
}

async function waitForEvent(
  event: EventName,
  match: (payload: Record<string, unknown>) => boolean,
  timeoutMs = 30_000,
  /** Only events from this index of `seen` on (the ones after something the test did). */
  from = 0,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = seen
      .slice(from)
      .find((e) => e.event === event && match(e.payload as Record<string, unknown>));
    if (found) return found.payload as Record<string, unknown>;
    if (Date.now() > deadline) throw new Error(`no ${event} event matched`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** 100 ms chunks from a pattern: S = speech, . = near-silence; each with the VAD's flag. */
function chunksFor(pattern: string): { pcm: Buffer; speech: boolean }[] {
  return [...pattern].map((c, i) => ({
    pcm:
      c === 'S'
        ? syntheticSpeech([{ speechMs: 100, silenceMs: 0 }], i + 1)
        : syntheticSpeech([{ speechMs: 0, silenceMs: 100 }], i + 1),
    speech: c === 'S',
  }));
}

async function play(
  chunks: { pcm: Buffer; speech: boolean }[],
  onChunk?: (seq: number) => Promise<void>,
): Promise<void> {
  for (const [seq, chunk] of chunks.entries()) {
    // The renderer's one-way chunk channel, as both transports deliver it.
    core.acceptChunk(encodeAudioChunk({ seq, capturedAt: seq * 100, pcm: chunk.pcm, speech: chunk.speech }));
    await onChunk?.(seq);
    await new Promise((r) => setTimeout(r, 15));
  }
}

async function sandboxSession(id: string) {
  return (await (await fetch(`${sandbox.url}/__sandbox/sessions/${id}`)).json()) as {
    pcm_sha256: string;
    received_bytes: number;
    connections: number;
    timeline: { type: string }[];
  };
}

async function dropStream(sessionId: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const reply = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'drop_stream', which: 'current', session_id: sessionId }),
    });
    if (reply.ok) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no open stream to drop');
}

function noSecretsCrossed(partnerToken: string): void {
  const crossed = JSON.stringify({ replies, seen });
  expect(crossed).not.toContain(partnerToken);
  // No JWT-shaped value (service tokens, ID tokens) in any reply or event.
  expect(crossed).not.toMatch(/eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/);
}

describe('an encounter through the contract', () => {
  it('bearer partner: auto-pause with pre-roll, a dropped connection, then the note and transcript', async () => {
    core = await newCore();
    await useTestSandbox({
      partnerId: 'demo-bearer',
      authModel: 'bearer',
      providerId: 'dr-contract',
      providerName: 'Dr Contract',
      providerOrgId: 'clinic-1',
    });
    await call('secrets.setPartnerToken', { token: BEARER_TOKEN });
    expect(await call('secrets.status')).toMatchObject({ partnerTokenStored: true });
    const status = await call('auth.signIn');
    expect(status).toMatchObject({ signedIn: true, model: 'bearer', providerId: 'dr-contract', demo: false });
    await chooseTestPin(core);

    const view = await call<{ sessionId: string }>('encounter.start', {
      kind: 'ambient',
      encounterId: 'visit1',
      context: { sections: ['CHIEF_COMPLAINT', 'PLAN'], patient_info: { sex: 'FEMALE' } },
    });
    // 2 s speech, 2 s silence (auto-pause after 1 s), 2 s speech.
    const chunks = chunksFor(`${'S'.repeat(20)}${'.'.repeat(20)}${'S'.repeat(20)}`);
    await play(chunks, async (seq) => {
      if (seq !== 12) return;
      const before = seen.length;
      await dropStream(view.sessionId);
      // The link back before the silence: a connection that is down has nothing to pause, so on
      // a busy machine (a fresh clone's CI run) a slow reconnect let one more silent chunk out
      // than the count below, which is about the pause and the pre-roll, not the reconnect's speed.
      await waitForEvent('recorder.changed', (v) => v.state === 'reconnecting', 30_000, before);
      const dropped = seen.findLastIndex((e) => e.event === 'recorder.changed');
      await waitForEvent('recorder.changed', (v) => v.state === 'streaming', 30_000, dropped);
    });
    await waitForEvent('recorder.changed', (v) => v.state === 'auto-paused');
    await call('recorder.end');
    const done = await waitForEvent(
      'results.progress',
      (p) => p.sessionId === view.sessionId && p.done === true,
    );
    expect(done.status).toBe('completed');

    // The service has exactly what the recorder should send: chunks 0–29 (the 10th silent chunk
    // completes the 1 s and is sent, then PAUSE), the 600 ms pre-roll 34–39, then 40–59. Nothing
    // lost to the dropped connection, nothing twice.
    const expected = Buffer.concat([...chunks.slice(0, 30), ...chunks.slice(34)].map((c) => c.pcm));
    const received = await sandboxSession(view.sessionId);
    expect(received.received_bytes).toBe(expected.length);
    expect(received.pcm_sha256).toBe(createHash('sha256').update(expected).digest('hex'));
    expect(received.connections).toBeGreaterThanOrEqual(2);
    const events = received.timeline.map((e) => e.type);
    expect(events.indexOf('PAUSE')).toBeGreaterThan(-1);
    expect(events.indexOf('RESUME')).toBeGreaterThan(events.indexOf('PAUSE'));

    const results = await call<Results>('results.get', { sessionId: view.sessionId });
    expect(results.summary?.map((s) => s.loinc_code)).toEqual(['10154-3', '18776-5']);
    expect(results.transcript?.length).toBeGreaterThan(0);
    // The 400 ms held back (chunks 30–33) is missing from the service's audio only: the second
    // speech began at 4 s on the visit clock, and is at 3.6 s in what the service received.
    expect(results.visitClock).toEqual([
      { sentStartMs: 0, visitStartMs: 0 },
      { sentStartMs: 3_000, visitStartMs: 3_400 },
    ]);
    const starts = results.transcript!.map((entry) => msFromOffset(entry.start_offset));
    const secondSpeech = starts.find((ms) => ms > 2_500)!;
    expect(Math.abs(secondSpeech - 3_600)).toBeLessThan(200);
    expect(Math.abs(toVisitMs(secondSpeech, results.visitClock!) - 4_000)).toBeLessThan(200);
    noSecretsCrossed(BEARER_TOKEN);
  });

  it('single-auth partner: a form-filling encounter gives structured data', async () => {
    core = await newCore();
    await useTestSandbox({
      partnerId: 'demo-single-auth',
      authModel: 'single_auth_token',
      providerId: 'nurse-contract',
      providerName: 'Nurse Contract',
      providerOrgId: 'ward-7',
    });
    await call('secrets.setPartnerToken', { token: 'sandbox-single-auth-partner-token' });
    expect(await call('auth.signIn')).toMatchObject({ signedIn: true, model: 'single_auth_token' });
    await chooseTestPin(core);
    const templates = await call<{ templates: { form_template_id: string }[] }>('forms.templates');
    expect(templates.templates.map((t) => t.form_template_id)).toContain('VITALS_ASSESSMENT');

    const view = await call<{ sessionId: string }>('encounter.start', {
      kind: 'form',
      encounterId: 'ward7bed2',
      formItems: [{ form_template_id: 'VITALS_ASSESSMENT' }],
    });
    // A room is never speech end to end: the energy segmenter measures speech against the quiet.
    await play(chunksFor(`${'.'.repeat(5)}${'S'.repeat(15)}${'.'.repeat(5)}`));
    // A second form added while recording (PATCH merges it in).
    await call('encounter.addForms', { formItems: [{ form_template_id: 'SKIN_ASSESSMENT' }] });
    await call('recorder.end');
    const done = await waitForEvent(
      'results.progress',
      (p) => p.sessionId === view.sessionId && p.done === true,
    );
    expect(done.status).toBe('completed');
    const results = await call<{ forms: { form_id: string }[] }>('results.get', {
      sessionId: view.sessionId,
    });
    expect(results.forms.map((f) => f.form_id)).toEqual(['VITALS_ASSESSMENT', 'SKIN_ASSESSMENT']);
    noSecretsCrossed('sandbox-single-auth-partner-token');
  });

  it('an ambient visit with a form: one recording gives the note, the transcript and the filled form', async () => {
    core = await newCore();
    await useTestSandbox({
      partnerId: 'demo-bearer',
      authModel: 'bearer',
      providerId: 'dr-forms',
      providerName: 'Dr Forms',
      providerOrgId: 'clinic-3',
    });
    await call('secrets.setPartnerToken', { token: BEARER_TOKEN });
    await call('auth.signIn');
    await chooseTestPin(core);
    const view = await call<{ sessionId: string }>('encounter.start', {
      kind: 'ambient',
      encounterId: 'visit2',
      context: { sections: ['CHIEF_COMPLAINT'] },
      formItems: [{ form_template_id: 'VITALS_ASSESSMENT' }],
    });
    await play(chunksFor(`${'.'.repeat(5)}${'S'.repeat(20)}${'.'.repeat(5)}`));
    // A form added while recording goes to the visit's form-filling session.
    await call('encounter.addForms', { formItems: [{ form_template_id: 'SKIN_ASSESSMENT' }] });
    await call('recorder.end');
    const done = await waitForEvent(
      'results.progress',
      (p) => p.sessionId === view.sessionId && p.done === true,
    );
    expect(done.status).toBe('completed');
    const results = await call<{
      summary: unknown[];
      transcript: unknown[];
      forms: { form_id: string }[];
      formSessionId: string;
    }>('results.get', { sessionId: view.sessionId });
    expect(results.summary.length).toBe(1);
    expect(results.transcript.length).toBeGreaterThan(0);
    expect(results.forms.map((f) => f.form_id)).toEqual(['VITALS_ASSESSMENT', 'SKIN_ASSESSMENT']);
    // Both sessions heard the same visit, byte for byte.
    const [note, forms] = [await sandboxSession(view.sessionId), await sandboxSession(results.formSessionId)];
    expect(results.formSessionId).not.toBe(view.sessionId);
    expect(forms.received_bytes).toBe(note.received_bytes);
    expect(forms.pcm_sha256).toBe(note.pcm_sha256);
    // Feedback on a filled form reaches the form-filling session.
    await call('forms.feedback', {
      sessionId: results.formSessionId,
      formId: 'VITALS_ASSESSMENT',
      feedback: { rating: 4, comment: 'good' },
    });
  });

  it('standard partner: signs in through the identity provider in the (headless) browser', async () => {
    const browser = headlessBrowser({ username: 'dr-oidc-contract', name: 'Dr Oidc' });
    core = await newCore(browser.openExternal);
    await useTestSandbox({
      partnerId: 'demo-standard',
      authModel: 'standard',
      oidcIssuer: sandbox.idpIssuer,
      oidcClientId: 'ambient-scribe-desktop',
      providerName: 'Dr Oidc',
      providerOrgId: 'clinic-2',
    });
    const status = await call('auth.signIn');
    expect(browser.opened).toHaveLength(1);
    expect(status).toMatchObject({ signedIn: true, model: 'standard', providerId: 'dr-oidc-contract' });
    noSecretsCrossed(BEARER_TOKEN);
  });

  it('refuses bad encounter details before anything is sent, naming the field and the rule', async () => {
    core = await newCore();
    await useTestSandbox({
      partnerId: 'demo-bearer',
      providerId: 'dr-checks',
      providerName: 'Dr Checks',
      providerOrgId: 'c1',
    });
    const bad = async (payload: unknown) => {
      const result = await core.router.dispatch('encounter.start', payload);
      if (result.ok) throw new Error('accepted');
      return result.error.message;
    };
    expect(await bad({ kind: 'ambient', encounterId: 'visit 7' })).toBe(
      'Encounter ID must be 1 to 255 letters and digits (A–Z, a–z, 0–9), nothing else.',
    );
    const dob = (date_of_birth: string) => ({
      kind: 'ambient',
      encounterId: 'v7',
      context: { patient_info: { date_of_birth } },
    });
    expect(await bad(dob('2999-01-01'))).toBe('Date of birth must be a real past date written YYYY-MM-DD.');
    expect(await bad(dob('1990-02-30'))).toBe('Date of birth must be a real past date written YYYY-MM-DD.');
    expect(await bad({ kind: 'ambient', encounterId: 'v7', context: { patient_info: { sex: 'F' } } })).toBe(
      'Sex must be one of MALE, FEMALE, OTHER, UNKNOWN.',
    );
    const both = {
      form_template_id: 'X',
      schema: { form_id: 'a', title: 'A', fields: [{ id: 'f', label: 'F', type: 'string' }] },
    };
    expect(await bad({ kind: 'form', encounterId: 'v7', formItems: [both] })).toMatch(
      /must have exactly one of form_template_id or schema/,
    );
    // Nothing reached the service: no session exists for these.
    const listed = (await (await fetch(`${sandbox.url}/__sandbox/sessions`)).json()) as {
      sessions: { encounter_id: string }[];
    };
    expect(listed.sessions.filter((s) => s.encounter_id === 'v7')).toEqual([]);
  });

  it('built-in sandbox: signs in with no account and no token, and says it is a demo', async () => {
    core = await newCore();
    // The defaults: the built-in sandbox, bearer model, nothing else entered.
    const status = await call('auth.signIn');
    expect(status).toMatchObject({ signedIn: true, model: 'bearer', demo: true });
    expect(await call('secrets.status')).toMatchObject({ partnerTokenStored: false });
  });

  it('built-in sandbox with the notification receiver: a signed notification brings the results early', async () => {
    // Polling alone would wait 30 s after its first look; the notification must beat that.
    core = await newCore(undefined, { firstDelayMs: 30_000, maxDelayMs: 30_000 });
    await call('settings.set', { notificationReceiver: true });
    await call('auth.signIn');
    const view = await call<{ sessionId: string }>('encounter.start', {
      kind: 'ambient',
      encounterId: 'notified1',
    });
    await play(chunksFor(`${'.'.repeat(5)}${'S'.repeat(15)}${'.'.repeat(5)}`));
    await call('recorder.end');
    const done = await waitForEvent(
      'results.progress',
      (p) => p.sessionId === view.sessionId && p.done === true,
      20_000,
    );
    expect(done.status).toBe('completed');
    expect(done.elapsedMs).toBeLessThan(20_000);
  });

  it('in browser mode, asks the renderer to open the sign-in page (auth.openUrl)', async () => {
    core = await newCore();
    await useTestSandbox({
      partnerId: 'demo-standard',
      authModel: 'standard',
      oidcIssuer: sandbox.idpIssuer,
      oidcClientId: 'ambient-scribe-desktop',
    });
    const signingIn = call('auth.signIn');
    const open = await waitForEvent('auth.openUrl', () => true, 10_000);
    expect(String(open.url)).toMatch(new RegExp(`^${sandbox.idpIssuer}/auth\\?`));
    await call('auth.cancelSignIn');
    expect(await signingIn).toMatchObject({ signedIn: false });
  });
});
