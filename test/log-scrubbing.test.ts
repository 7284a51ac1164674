import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { syntheticSpeech } from '../sandbox/test-support/service-client';
import { browserModeLogPath, createNodeFileLogger } from '../src/main/browser-host/node-file-logger';
import type { AppCore } from '../src/main/core/app-core';
import { headlessBrowser } from '../src/main/core/auth/testing/headless-browser';
import { createJsonFileStorage } from '../src/main/core/json-file-storage';
import { scrubbedLogger } from '../src/main/core/logging/scrubbed-logger';
import { createSecretValues } from '../src/main/core/logging/secret-values';
import { createMemorySecretBox, SECRET_NAMES } from '../src/main/core/secrets/secret-box';
import { SPOOL_KEY_NAME } from '../src/main/core/spool/spool-key';
import { encodeAudioChunk, type EventName, type VerbName } from '../src/shared/contract';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy';
import { SANDBOX_BEARER_TOKEN } from './support/sandbox-partner';
import { createTestCore, testAppInfo } from './support/test-core';

/**
 * Issue #8: the log holds no token, no partner secret, no transcript or note text and no patient
 * data. A core wired as browser mode wires it (electron-log/node writing <data>/logs/main.log
 * through the scrubber) lives through every kind of event against a real sandbox: settings saved,
 * a refused and an accepted partner token, a visit with a date of birth and sex whose stream is
 * dropped, End, the note, transcript and filled form fetched, feedback with clinical free text,
 * 500s from the service, refused input, an unknown session, history, an OpenID Connect sign-in
 * and sign-out. Then the log file itself is searched for every secret and every piece of patient
 * data the run used, and for every token that crossed the wire (seen by a proxy, not by the app).
 */
const WRONG_PARTNER_TOKEN = 'not-the-partner-token-7731';
const DATE_OF_BIRTH = '1957-03-14';
const IMPOSSIBLE_DATE_OF_BIRTH = '1957-02-30';
const SEX = 'FEMALE';
const PROVIDER_NAME = 'Dr Quillon Marwick';
// What a clinician might type into feedback: clinical text about this patient.
const FEEDBACK_COMMENT = 'Mrs Okonkwo described orthopnea since the funeral';
const CORRECTED_VALUE = 'ninetyseven irregular';
const CLINICIAN_PIN = '80417293';
const PATIENT_WORDS = ['1957', SEX, 'Quillon', 'Marwick', 'Okonkwo', 'orthopnea', 'funeral', 'ninetyseven'];

let sandbox: Sandbox;
let proxy: RecordingProxy;
let core: AppCore;
let logDirectory: string;
let logText = '';
/** The OIDC refresh token the sign-in stored (read from the secret box before sign-out drops it). */
let refreshToken: string | undefined;
const secretBox = createMemorySecretBox();
const browser = headlessBrowser({ username: 'dr-log-oidc', name: 'Dr Log Oidc' });
const seen: { event: string; payload: Record<string, unknown> }[] = [];
/** Words of the note, transcript and filled forms the service returned. */
const clinicalWords = new Set<string>();

async function call<T = Record<string, unknown>>(verb: VerbName, payload?: unknown): Promise<T> {
  const result = await core.router.dispatch(verb, payload);
  if (!result.ok) throw new Error(`${verb}: ${result.error.message}`);
  return result.value as T;
}

async function refused(verb: VerbName, payload?: unknown): Promise<string> {
  const result = await core.router.dispatch(verb, payload);
  if (result.ok) throw new Error(`${verb} was accepted`);
  return result.error.message;
}

async function fault(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function waitForEvent(event: EventName, match: (payload: Record<string, unknown>) => boolean) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = seen.find((e) => e.event === event && match(e.payload));
    if (found) return found.payload;
    if (Date.now() > deadline) throw new Error(`no ${event} event matched`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** 100 ms chunks: S = speech, . = near-silence, played as the renderer sends them. */
async function play(pattern: string, onChunk: (seq: number) => Promise<void>): Promise<void> {
  for (const [seq, c] of [...pattern].entries()) {
    const pcm = syntheticSpeech([{ speechMs: c === 'S' ? 100 : 0, silenceMs: c === 'S' ? 0 : 100 }], seq + 1);
    core.acceptChunk(encodeAudioChunk({ seq, capturedAt: seq * 100, pcm, speech: c === 'S' }));
    await onChunk(seq);
    await new Promise((r) => setTimeout(r, 15));
  }
}

async function dropStream(sessionId: string): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    if ((await fault({ action: 'drop_stream', which: 'current', session_id: sessionId })).ok) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no open stream to drop');
}

function collectWords(text: string): void {
  for (const word of text.match(/[A-Za-z]{8,}/g) ?? []) clinicalWords.add(word.toLowerCase());
}

/** The visit and everything around it, as a clinician and the service would produce it. */
async function liveThroughEveryKindOfEvent(): Promise<void> {
  const bearer = {
    service: { kind: 'url', baseUrl: proxy.url },
    partnerId: 'demo-bearer',
    authModel: 'bearer',
    providerId: 'dr-logged',
    providerName: PROVIDER_NAME,
    providerOrgId: 'clinic-log',
  };
  await call('settings.set', bearer);

  // A partner token the service refuses (the auth error path), then the right one.
  await call('secrets.setPartnerToken', { token: WRONG_PARTNER_TOKEN });
  expect(await call('auth.signIn')).toMatchObject({ signedIn: false });
  await call('secrets.setPartnerToken', { token: SANDBOX_BEARER_TOKEN });
  expect(await call('auth.signIn')).toMatchObject({ signedIn: true });
  // The PIN the window asks for first; long enough that no log line holds it by chance.
  await call('privacy.setPin', { pin: CLINICIAN_PIN });

  // A visit with patient details and a form, its stream dropped once, then End.
  const view = await call<{ sessionId: string }>('encounter.start', {
    kind: 'ambient',
    encounterId: 'logvisit1',
    context: {
      sections: ['CHIEF_COMPLAINT', 'PLAN'],
      provider_specialty: 'CARDIOLOGY',
      patient_info: { date_of_birth: DATE_OF_BIRTH, sex: SEX },
    },
    formItems: [{ form_template_id: 'VITALS_ASSESSMENT' }],
  });
  await play(`${'.'.repeat(5)}${'S'.repeat(20)}${'.'.repeat(15)}${'S'.repeat(10)}`, async (seq) => {
    if (seq === 12) await dropStream(view.sessionId);
  });
  await call('recorder.end');
  const done = await waitForEvent(
    'results.progress',
    (p) => p.sessionId === view.sessionId && p.done === true,
  );
  expect(done.status).toBe('completed');

  // The results, read as the result view reads them.
  const results = await call<{
    summary: { content: string }[];
    transcript: { transcript: string }[];
    forms: { form_id: string; fields: { id: string; value: unknown; evidence?: string[] }[] }[];
    formSessionId: string;
  }>('results.get', { sessionId: view.sessionId });
  for (const section of results.summary) collectWords(section.content);
  for (const entry of results.transcript) collectWords(entry.transcript);
  for (const field of results.forms.flatMap((f) => f.fields)) {
    collectWords(`${String(field.value)} ${(field.evidence ?? []).join(' ')}`);
  }

  // Feedback with clinical free text: once accepted, once refused for its rating, once met by 500s.
  const feedback = {
    sessionId: results.formSessionId,
    formId: 'VITALS_ASSESSMENT',
    feedback: {
      rating: 2,
      comment: FEEDBACK_COMMENT,
      field_corrections: [{ id: 'heart_rate', value: CORRECTED_VALUE }],
    },
  };
  await call('forms.feedback', feedback);
  expect(
    await refused('forms.feedback', { ...feedback, feedback: { ...feedback.feedback, rating: 9 } }),
  ).toBe('Rating must be 1 to 5.');
  expect((await fault({ action: 'fail_rest', count: 20 })).ok).toBe(true);
  await refused('forms.feedback', feedback);
  await refused('forms.templates');
  expect((await fault({ action: 'clear' })).ok).toBe(true);

  // Input the contract refuses: the refusal names the field, and the log must not hold the value.
  expect(
    await refused('encounter.start', {
      kind: 'ambient',
      encounterId: 'logvisit2',
      context: { patient_info: { date_of_birth: IMPOSSIBLE_DATE_OF_BIRTH } },
    }),
  ).toBe('Date of birth must be a real past date written YYYY-MM-DD.');
  await refused('results.get', { sessionId: 'no-such-session' });
  expect((await call<{ entries: unknown[] }>('history.list')).entries.length).toBeGreaterThan(0);

  // A standard partner: the browser sign-in (an authorization code in the redirect, an ID token,
  // a refresh token stored), then sign-out (the refresh token revoked).
  await call('settings.set', {
    partnerId: 'demo-standard',
    authModel: 'standard',
    oidcIssuer: sandbox.idpIssuer,
    oidcClientId: 'ambient-scribe-desktop',
  });
  expect(await call('auth.signIn')).toMatchObject({ signedIn: true, model: 'standard' });
  refreshToken = await secretBox.get(SECRET_NAMES.oidcRefreshToken);
  await call('auth.signOut');
}

beforeAll(async () => {
  sandbox = await startSandbox({ asr: 'energy', minSpeechMs: 500 });
  proxy = await startRecordingProxy(sandbox.url);
  const dataDirectory = await mkdtemp(join(tmpdir(), 'scribe-log-scrubbing-'));
  const logPath = browserModeLogPath(dataDirectory);
  logDirectory = join(dataDirectory, 'logs');
  // As browser mode (src/main/browser-host/main.ts) wires it.
  const secretValues = createSecretValues();
  const log = scrubbedLogger(createNodeFileLogger({ filePath: logPath, console: false }), secretValues);
  core = await createTestCore({
    settingsStorage: createJsonFileStorage(join(dataDirectory, 'browser-settings.json'), log),
    secrets: secretBox,
    appInfo: testAppInfo(dataDirectory),
    log,
    secretValues,
    openExternal: browser.openExternal,
    recorderTiming: { autoPauseAfterMs: 1_000, preRollMs: 600, captureStallMs: 5_000 },
  });
  core.events.subscribe((event, payload) =>
    seen.push({ event, payload: payload as Record<string, unknown> }),
  );
  try {
    await liveThroughEveryKindOfEvent();
  } finally {
    await core.stop();
  }
  for (const name of await readdir(logDirectory)) logText += await readFile(join(logDirectory, name), 'utf8');
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
});

describe('the log file after every kind of event', () => {
  it('is there, owner-only, and has a line for each kind of event', async () => {
    if (process.platform !== 'win32') {
      expect((await stat(join(logDirectory, 'main.log'))).mode & 0o777).toBe(0o600);
    }
    const lines = logText.trimEnd().split(/\r?\n/);
    expect(lines.length).toBeGreaterThan(30);
    for (const expected of [
      /\[info\] +app: starting \{"mode":"browser","version":"1\.0\.0","platform":"linux"\}/,
      /\[info\] +settings: saved \{"setting":\["service","partnerId",/,
      /\[warn\] +auth: sign-in failed \{"model":"bearer","status":40[13]/,
      /\[info\] +auth: signed in to the service \{"model":"bearer"/,
      /\[info\] +recorder: state \{"from":"connecting","to":"streaming"/,
      /\[info\] +stream: closed \{"sessionId":"[0-9a-f-]{36}","code":1006/,
      /\[info\] +stream link \{"sessionId":"[0-9a-f-]{36}","state":"reconnecting"/,
      /\[info\] +recorder: state \{"from":"ending","to":"ended"/,
      /\[warn\] +verb refused: invalid input \{"verb":"forms\.feedback","rejectedFields":\["feedback\.rating"\]\}/,
      /\[info\] +service call failed; retrying \{"operation":"[\w.]+","status":500,"id":"internal_error"/,
      /\[warn\] +verb failed at the service \{"verb":"forms\.templates","status":500/,
      /\[warn\] +verb refused: invalid input \{"verb":"encounter\.start","rejectedFields":\["context\.patient_info\.date_of_birth"\]\}/,
      /\[info\] +verb refused \{"verb":"results\.get","refusal":"invalid_request"\}/,
      /\[info\] +auth: signed in at the identity provider/,
      /\[info\] +auth: signed out \{"model":"standard"\}/,
      /\[info\] +app: stopped$/,
    ]) {
      expect(
        lines.some((line) => expected.test(line)),
        String(expected),
      ).toBe(true);
    }
  });

  it('holds no partner token, no JWT, and no token or code that crossed the wire', async () => {
    const traffic = proxy.traffic();
    const serviceTokens = new Set([
      ...[...traffic.matchAll(/"service_token"\s*:\s*"([^"]+)"/g)].map((m) => m[1]!),
      ...[...traffic.matchAll(/sdp_service_token:\s*(\S+)/gi)].map((m) => m[1]!),
    ]);
    // Both partners logged in through the proxy: at least one service token each.
    expect(serviceTokens.size).toBeGreaterThanOrEqual(2);
    expect(refreshToken).toBeDefined();
    const codes = browser.visited.map((url) => new URL(url).searchParams.get('code')).filter(Boolean);
    expect(codes.length).toBeGreaterThan(0);
    const spoolKey = await secretBox.get(SPOOL_KEY_NAME);
    expect(spoolKey).toBeDefined();

    const secrets = [
      SANDBOX_BEARER_TOKEN,
      WRONG_PARTNER_TOKEN,
      CLINICIAN_PIN,
      refreshToken!,
      spoolKey!,
      ...codes,
      ...serviceTokens,
    ];
    for (const secret of secrets) expect(logText.includes(secret!), `a secret is in the log`).toBe(false);
    // Not even a part of a service token (its header, claims or signature).
    for (const token of serviceTokens) {
      for (const part of token.split('.').filter((p) => p.length >= 10)) {
        expect(logText.includes(part), 'a part of a service token is in the log').toBe(false);
      }
    }
    expect(logText).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
    expect(logText).not.toMatch(/eyJ[\w-]{10,}/);
  });

  it('holds no patient data: not the date of birth, the sex, names or the clinician’s free text', () => {
    for (const value of [
      DATE_OF_BIRTH,
      IMPOSSIBLE_DATE_OF_BIRTH,
      CORRECTED_VALUE,
      FEEDBACK_COMMENT,
      PROVIDER_NAME,
    ]) {
      expect(logText).not.toContain(value);
    }
    for (const word of PATIENT_WORDS) expect(logText.toLowerCase()).not.toContain(word.toLowerCase());
  });

  it('holds none of the words of the note, the transcript or the filled form the service returned', () => {
    // The sandbox's words (energy recognition: no real words, but the note's and transcript's own).
    expect(clinicalWords.size).toBeGreaterThanOrEqual(3);
    const lowered = logText.toLowerCase();
    for (const word of clinicalWords) expect(lowered, word).not.toContain(word);
  });
});
