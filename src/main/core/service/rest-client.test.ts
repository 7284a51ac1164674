import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../../sandbox/server';
import { ServiceClient, syntheticSpeech } from '../../../../sandbox/test-support/service-client';
import { isTerminalStatus, sectionInfo } from '../../../shared/service';
import { fault, sharedTokenManager, type TestManager } from '../auth/testing/sandbox-managers';
import { captureLog, count } from '../auth/testing/test-ports';
import { createRestClient, type RestClient } from './rest-client';
import { startLossyProxy } from './rest-client-test-proxy';
import { ServiceCallError, sentenceFor } from './service-error';

/** The REST client against the real sandbox: paths, headers, validation, retries, timeouts. */
let sandbox: Sandbox;
const open: TestManager[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.05, asr: 'energy', minSpeechMs: 500 });
});
afterEach(async () => {
  await fault(sandbox, { action: 'clear' });
  open.splice(0).forEach(({ manager }) => manager.dispose());
});
afterAll(() => sandbox.close());

async function clientFor(
  model: 'bearer' | 'single_auth_token',
  options: Partial<Parameters<typeof createRestClient>[0]> = {},
): Promise<{ rest: RestClient; auth: TestManager; log: ReturnType<typeof captureLog> }> {
  const auth = await sharedTokenManager(sandbox, model);
  open.push(auth);
  const log = captureLog();
  const rest = createRestClient({
    endpoint: { baseUrl: sandbox.url },
    tokens: auth.manager,
    log,
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
    ...options,
  });
  // Signed in before any fault is injected, so that faults hit the calls under test.
  await auth.manager.current();
  return { rest, auth, log };
}

/** Streams audio the way the stream client will, with the same credentials. */
async function record(auth: TestManager, sessionId: string, pcm: Buffer): Promise<void> {
  const credentials = await auth.manager.current();
  const client = new ServiceClient(sandbox.url);
  client.token = credentials.serviceToken;
  if (credentials.providerHeader) client.providerHeader = credentials.providerHeader;
  const stream = await client.openStream(sessionId);
  stream.audioChunks(pcm);
  await stream.waitForAck(pcm.length);
  stream.event('EOF');
  await stream.closed;
}

async function waitUntilTerminal(read: () => Promise<string>): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const status = await read();
    if (isTerminalStatus(status)) return status;
    if (Date.now() > deadline) throw new Error(`status stayed ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const speech = () =>
  syntheticSpeech([
    { speechMs: 1200, silenceMs: 600 },
    { speechMs: 1000, silenceMs: 400 },
  ]);

describe('ambient sessions', () => {
  it('creates with the client’s id, posts context, ends, and reads validated results', async () => {
    const { rest, auth } = await clientFor('bearer');
    const id = randomUUID();
    expect(await rest.createAmbientSession('visit1', id)).toBe(id);
    await rest.postAmbientContext(id, {
      sections: ['CHIEF_COMPLAINT', 'PLAN'],
      patient_info: { date_of_birth: '1961-04-30', sex: 'FEMALE' },
    });
    expect(await rest.ambientStatus(id)).toBe('created');
    await record(auth, id, speech());
    await expect(rest.ambientContent(id)).rejects.toMatchObject({ status: 409, id: 'not_ready' });

    await rest.endAmbientSession(id);
    expect(await waitUntilTerminal(() => rest.ambientStatus(id))).toBe('completed');

    const content = await rest.ambientContent(id);
    expect(content.summary.map((s) => s.loinc_code)).toEqual([
      sectionInfo('CHIEF_COMPLAINT')?.loinc,
      sectionInfo('PLAN')?.loinc,
    ]);
    const transcript = await rest.ambientTranscript(id);
    expect(transcript.final_transcript).toHaveLength(2);
    expect(transcript.final_transcript[0]).toMatchObject({
      transcript_id: expect.any(String),
      start_offset: { hours: 0, minutes: 0, seconds: expect.any(Number), nanos: expect.any(Number) },
    });
    const merged = await rest.encounterContent('visit1');
    expect(merged.summary.length).toBe(2);
  });

  it('lets the service pick the id', async () => {
    const { rest } = await clientFor('bearer');
    expect(await rest.createAmbientSession('visit2')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses an invalid context with the service’s id and a sentence', async () => {
    const { rest } = await clientFor('bearer');
    const id = await rest.createAmbientSession('visit3');
    const error = await rest
      .postAmbientContext(id, { patient_info: { date_of_birth: '1990-02-30' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceCallError);
    expect(error).toMatchObject({
      status: 400,
      id: 'invalid_context_request',
      sentence: sentenceFor(400, 'invalid_context_request'),
      serviceMessage: expect.stringContaining('date_of_birth'),
    });
  });

  it('says session_not_found for a session the service does not know', async () => {
    const { rest } = await clientFor('bearer');
    await expect(rest.ambientStatus(randomUUID())).rejects.toMatchObject({
      status: 404,
      id: 'session_not_found',
      sentence: sentenceFor(404, 'session_not_found'),
    });
  });
});

describe('form filling', () => {
  it('runs a session from templates to structured data and feedback', async () => {
    const { rest, auth } = await clientFor('bearer');
    const templates = await rest.formTemplates();
    expect(templates.templates.map((t) => t.form_template_id)).toContain('VITALS_ASSESSMENT');

    const id = await rest.createFormSession('ward7');
    await rest.postFormContext(id, [{ form_template_id: 'VITALS_ASSESSMENT' }]);
    await rest.patchFormContext(id, [
      {
        schema: {
          form_id: 'intake',
          title: 'Intake',
          fields: [{ id: 'pain', label: 'Pain score', type: 'number' }],
        },
      },
    ]);
    await record(auth, id, speech());
    await rest.endFormSession(id);
    expect(await waitUntilTerminal(() => rest.formStatus(id))).toBe('completed');

    const data = await rest.structuredData(id);
    expect(data.forms.map((f) => f.form_id).sort()).toEqual(['VITALS_ASSESSMENT', 'intake'].sort());
    await rest.sendFormFeedback(id, data.forms[0]!.form_id, { rating: 4, comment: 'close enough' });
  });

  it('refuses an item with both a template and a schema', async () => {
    const { rest } = await clientFor('bearer');
    const id = await rest.createFormSession('ward8');
    const both = {
      form_template_id: 'VITALS_ASSESSMENT',
      schema: { form_id: 'x', title: 'X', fields: [{ id: 'a', label: 'A', type: 'string' as const }] },
    };
    await expect(rest.postFormContext(id, [both])).rejects.toMatchObject({
      status: 400,
      id: 'invalid_context_request',
    });
  });
});

describe('Single Auth Token partners', () => {
  it('send sdp_provider_id on every call (the sandbox refuses calls without it)', async () => {
    const { rest, auth } = await clientFor('single_auth_token');
    const credentials = await auth.manager.current();
    const bare = await fetch(`${sandbox.url}/api/v1/info/service-medical-form-templates`, {
      headers: { sdp_service_token: credentials.serviceToken },
    });
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as { message: string }).message).toMatch(/^missing_sdp_provider_id_header/);

    const id = await rest.createAmbientSession('visit4', randomUUID());
    await rest.postAmbientContext(id, { sections: ['PLAN'] });
    expect(await rest.ambientStatus(id)).toBe('created');
    await record(auth, id, speech());
    await rest.endAmbientSession(id);
    expect(await waitUntilTerminal(() => rest.ambientStatus(id))).toBe('completed');
    expect((await rest.ambientContent(id)).summary.length).toBe(1);
    expect(await rest.formTemplates()).toMatchObject({ templates: expect.any(Array) });
    const formId = await rest.createFormSession('ward9');
    expect(await rest.formStatus(formId)).toBe('created');
  });
});

describe('a flaky or slow service', () => {
  it('retries idempotent calls through 500s and succeeds', async () => {
    const { rest, log } = await clientFor('bearer');
    const id = randomUUID();
    await fault(sandbox, { action: 'fail_rest', count: 2 });
    expect(await rest.createAmbientSession('visit5', id)).toBe(id);
    await fault(sandbox, { action: 'fail_rest', count: 2 });
    expect(await rest.ambientStatus(id)).toBe('created');
    expect(count(log, 'service call failed; retrying')).toBe(4);
  });

  it('does not repeat a call that is not safe to repeat', async () => {
    const { rest } = await clientFor('bearer');
    await fault(sandbox, { action: 'fail_rest', count: 1 });
    await expect(rest.createFormSession('ward10')).rejects.toMatchObject({
      status: 500,
      id: 'internal_error',
    });
  });

  it('gives up with a "timeout" error when the service is too slow', async () => {
    const { rest } = await clientFor('bearer', { timeoutMs: 150, retry: { attempts: 2, baseDelayMs: 20 } });
    await fault(sandbox, { action: 'delay_rest', ms: 1_000 });
    const started = Date.now();
    const error = await rest.formTemplates().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceCallError);
    expect(error).toMatchObject({ status: 0, id: 'timeout', sentence: sentenceFor(0, 'timeout') });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('treats 409 after a lost create answer as "it exists", making one session', async () => {
    const proxy = await startLossyProxy(sandbox.url);
    try {
      const { rest, log } = await clientFor('bearer', { endpoint: { baseUrl: proxy.url } });
      const id = randomUUID();
      // The service creates the session, but its answer is lost on the way back.
      proxy.loseAnswers(1);
      expect(await rest.createAmbientSession('visit6', id)).toBe(id);
      expect(count(log, 'service call failed; retrying')).toBe(1);
      expect(count(log, 'service call had already succeeded on an earlier try')).toBe(1);
      const sessions = (await (await fetch(`${sandbox.url}/__sandbox/sessions`)).json()) as {
        sessions: { id: string; encounter_id: string }[];
      };
      expect(sessions.sessions.filter((s) => s.encounter_id === 'visit6').map((s) => s.id)).toEqual([id]);
    } finally {
      await proxy.close();
    }
  });

  it('treats "already processing" after a lost end answer as done', async () => {
    const proxy = await startLossyProxy(sandbox.url);
    try {
      const { rest, auth, log } = await clientFor('bearer', { endpoint: { baseUrl: proxy.url } });
      const id = await rest.createAmbientSession('visit7', randomUUID());
      await record(auth, id, speech());
      proxy.loseAnswers(1);
      await expect(rest.endAmbientSession(id)).resolves.toBeUndefined();
      expect(count(log, 'service call had already succeeded on an earlier try')).toBe(1);
      expect(['processing', 'completed']).toContain(await rest.ambientStatus(id));
    } finally {
      await proxy.close();
    }
  });

  it('does not mistake a genuine conflict for its own earlier try', async () => {
    const { rest } = await clientFor('bearer');
    const id = await rest.createAmbientSession('visit8', randomUUID());
    await expect(rest.createAmbientSession('visit8', id)).rejects.toMatchObject({
      status: 409,
      id: 'session_conflict',
    });
  });

  it('is cancelled by the caller’s signal without retrying', async () => {
    const { rest } = await clientFor('bearer');
    await fault(sandbox, { action: 'delay_rest', ms: 1_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(rest.formTemplates({ signal: controller.signal })).rejects.toMatchObject({
      id: 'cancelled',
    });
  });

  it('says the service is unreachable when nothing listens', async () => {
    const { auth } = await clientFor('bearer');
    const rest = createRestClient({
      endpoint: { baseUrl: 'http://127.0.0.1:9' },
      tokens: auth.manager,
      retry: { attempts: 2, baseDelayMs: 10 },
    });
    await expect(rest.formTemplates()).rejects.toMatchObject({
      status: 0,
      id: 'unreachable',
      sentence: sentenceFor(0, 'unreachable'),
    });
  });
});
