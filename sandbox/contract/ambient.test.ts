import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SECTIONS, isNothingFound, msFromOffset, sectionInfo } from '../../src/shared/service';
import { startSandbox, type Sandbox } from '../server';
import { ServiceClient, syntheticSpeech } from '../test-support/service-client';
import { IDLE_OUTLIVES_THE_TEST } from '../test-support/idle-rule';
import { TOKEN_OUTLIVES_THE_FILE } from '../test-support/token-lifetime';

/** docs/protocol.md "Ambient session": create, context, end, status, content, transcript. */
let sandbox: Sandbox;
let client: ServiceClient;
const path = (id: string, what: string) => `/api/v1/ambient/session/${id}/${what}`;

beforeAll(async () => {
  sandbox = await startSandbox({
    timeScale: 0.01,
    asr: 'energy',
    minSpeechMs: 500,
    // 300 ms of "processing" once scaled: long enough that a status read right after End sees it
    // on a loaded machine (at the default's 15 ms it once read "completed" already).
    limitOverrides: { processingDelayMs: 30_000, ...TOKEN_OUTLIVES_THE_FILE, ...IDLE_OUTLIVES_THE_TEST },
  });
  client = new ServiceClient(sandbox.url);
  await client.signIn({
    partner_id: 'demo-bearer',
    partner_token: 'sandbox-bearer-partner-token',
    provider_id: 'dr-ambient',
  });
});
afterAll(() => sandbox.close());

async function record(id: string, pcm: Buffer): Promise<void> {
  const stream = await client.openStream(id);
  stream.audioChunks(pcm);
  await stream.waitForAck(pcm.length);
  stream.event('EOF');
  await stream.closed;
}

describe('create', () => {
  it('generates an id, or takes the client’s UUID v4', async () => {
    const generated = await client.call('POST', '/api/v1/ambient/session/create', {
      encounter_id: 'visit42',
    });
    expect(generated.status).toBe(201);
    expect(generated.body.ambient_session_id).toMatch(/^[0-9a-f-]{36}$/);
    const mine = randomUUID();
    const chosen = await client.call('POST', '/api/v1/ambient/session/create', {
      encounter_id: 'visit42',
      ambient_session_id: mine,
    });
    expect(chosen).toEqual({ status: 201, body: { ambient_session_id: mine } });
  });

  it('accepts the legacy session_group_id', async () => {
    const reply = await client.call('POST', '/api/v1/ambient/session/create', {
      session_group_id: 'legacy1',
    });
    expect(reply.status).toBe(201);
  });

  it.each([
    [{ encounter_id: 'has space' }, 'invalid_request'],
    [{ encounter_id: 'a'.repeat(256) }, 'invalid_request'],
    [{ encounter_id: '' }, 'invalid_request'],
    [{}, 'invalid_request'],
    [{ encounter_id: 'ok1', ambient_session_id: 'not-a-uuid' }, 'invalid_ambient_id_format'],
    [
      { encounter_id: 'ok1', ambient_session_id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301' },
      'invalid_ambient_id_format',
    ],
  ])('refuses %j with 400 %s', async (body, id) => {
    const reply = await client.call('POST', '/api/v1/ambient/session/create', body);
    expect(reply).toMatchObject({
      status: 400,
      body: { code: 400, message: expect.stringMatching(new RegExp(`^${id}: `)) },
    });
  });

  it('answers 409 for an id already in use', async () => {
    const id = randomUUID();
    await client.createSession('e1', id);
    expect(
      (
        await client.call('POST', '/api/v1/ambient/session/create', {
          encounter_id: 'e1',
          ambient_session_id: id,
        })
      ).status,
    ).toBe(409);
  });
});

describe('context', () => {
  it('takes specialty, sections and patient info', async () => {
    const id = await client.createSession();
    const reply = await client.call('POST', path(id, 'context'), {
      provider_specialty: 'CARDIOLOGY',
      sections: ['CHIEF_COMPLAINT', 'PLAN'],
      patient_info: { date_of_birth: '1961-04-30', sex: 'FEMALE' },
      unknown_field: 'ignored',
    });
    expect(reply).toEqual({ status: 200, body: {} });
  });

  it.each([
    [{ patient_info: { date_of_birth: '2999-01-01' } }, 'date_of_birth'],
    [{ patient_info: { date_of_birth: '1990-02-30' } }, 'date_of_birth'],
    [{ patient_info: { date_of_birth: '30/04/1961' } }, 'date_of_birth'],
    [{ patient_info: { sex: 'F' } }, 'sex'],
    [{ sections: ['DIAGNOSIS_GUESS'] }, 'sections'],
    [{ provider_specialty: 'ASTROLOGY' }, 'provider_specialty'],
  ])('refuses %j with 400 invalid_context_request naming %s', async (body, field) => {
    const id = await client.createSession();
    const reply = await client.call('POST', path(id, 'context'), body);
    expect(reply.status).toBe(400);
    expect(String(reply.body.message)).toMatch(new RegExp(`^invalid_context_request: .*${field}`));
  });

  it('answers 404 session_not_found for an unknown session', async () => {
    const reply = await client.call('POST', path(randomUUID(), 'context'), {});
    expect(reply).toEqual({
      status: 404,
      body: { code: 404, message: expect.stringMatching(/^session_not_found: /) },
    });
  });
});

describe('end, status and results', () => {
  it('goes created → running → processing → completed and serves note and transcript', async () => {
    const id = await client.createSession('enc77');
    expect((await client.call('GET', path(id, 'status'))).body).toEqual({ status: 'created' });
    await client.call('POST', path(id, 'context'), { sections: ['CHIEF_COMPLAINT', 'ASSESSMENT_AND_PLAN'] });
    // Three utterances with silences: the energy engine finds three segments.
    await record(
      id,
      syntheticSpeech([
        { speechMs: 1200, silenceMs: 800 },
        { speechMs: 900, silenceMs: 700 },
        { speechMs: 1500, silenceMs: 500 },
      ]),
    );
    expect((await client.call('GET', path(id, 'content'))).status).toBe(409);

    expect(await client.call('POST', path(id, 'end'))).toEqual({ status: 202, body: {} });
    expect((await client.call('GET', path(id, 'status'))).body).toEqual({ status: 'processing' });
    expect(await client.waitForStatus(path(id, 'status'), ['completed', 'failed', 'skipped'])).toBe(
      'completed',
    );

    const transcript = (
      await client.call<{
        final_transcript: { transcript_id: string; start_offset: never; end_offset: never }[];
      }>('GET', path(id, 'transcript'))
    ).body.final_transcript;
    expect(transcript).toHaveLength(3);
    const starts = transcript.map((t) => msFromOffset(t.start_offset));
    expect(starts[0]).toBeLessThan(200);
    expect(starts[1]).toBeGreaterThan(1_800);
    expect(starts[1]).toBeLessThan(2_300);

    const summary = (
      await client.call<{ summary: { title: string; loinc_code?: string; source_transcripts?: string[] }[] }>(
        'GET',
        path(id, 'content'),
      )
    ).body.summary;
    expect(summary.map((s) => s.loinc_code)).toEqual([
      sectionInfo('CHIEF_COMPLAINT')?.loinc,
      sectionInfo('ASSESSMENT_AND_PLAN')?.loinc,
    ]);
    const ids = new Set(transcript.map((t) => t.transcript_id));
    for (const section of summary)
      for (const source of section.source_transcripts ?? []) expect(ids.has(source)).toBe(true);

    const merged = await client.call<{ summary: unknown[] }>(
      'GET',
      '/api/v1/ambient/encounter/enc77/content',
    );
    expect(merged.status).toBe(200);
    expect(merged.body.summary).toHaveLength(2);
  });

  it('uses the default sections when none were asked for', async () => {
    const id = await client.createSession();
    await record(id, syntheticSpeech([{ speechMs: 1500, silenceMs: 300 }]));
    await client.call('POST', path(id, 'end'));
    await client.waitForStatus(path(id, 'status'), ['completed']);
    const summary = (await client.call<{ summary: { loinc_code?: string }[] }>('GET', path(id, 'content')))
      .body.summary;
    expect(summary.map((s) => s.loinc_code)).toEqual(
      DEFAULT_SECTIONS.map((name) => sectionInfo(name)?.loinc),
    );
  });

  it('skips a session with no speech', async () => {
    const id = await client.createSession();
    await record(id, syntheticSpeech([{ speechMs: 0, silenceMs: 2000 }]));
    await client.call('POST', path(id, 'end'));
    expect(await client.waitForStatus(path(id, 'status'), ['completed', 'skipped', 'failed'])).toBe(
      'skipped',
    );
    expect((await client.call('GET', path(id, 'content'))).status).toBe(409);
  });

  it('refuses a second end, and an end after CANCEL, with 400 invalid_end_session_request', async () => {
    const id = await client.createSession();
    await client.call('POST', path(id, 'end'));
    const again = await client.call('POST', path(id, 'end'));
    expect(again).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^invalid_end_session_request: /) },
    });

    const cancelled = await client.createSession();
    const stream = await client.openStream(cancelled);
    stream.event('CANCEL');
    await stream.closed;
    expect((await client.call('POST', path(cancelled, 'end'))).status).toBe(400);
  });

  it('ends a session whose stream is still open, closing it normally', async () => {
    const id = await client.createSession();
    const stream = await client.openStream(id);
    stream.audioChunks(syntheticSpeech([{ speechMs: 1500, silenceMs: 100 }]));
    await stream.waitForAck(1600 * 32);
    await client.call('POST', path(id, 'end'));
    expect((await stream.closed).code).toBe(1000);
  });

  it('fails processing when the control API says so', async () => {
    const id = await client.createSession();
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'fail_processing', session_id: id }),
    });
    await record(id, syntheticSpeech([{ speechMs: 1500, silenceMs: 100 }]));
    await client.call('POST', path(id, 'end'));
    expect(await client.waitForStatus(path(id, 'status'), ['completed', 'failed'])).toBe('failed');
  });

  it('writes a note with an error injected when the control API says so (alter_note), once', async () => {
    const speech = syntheticSpeech([{ speechMs: 1500, silenceMs: 100 }]);
    const noteOf = async (id: string) => {
      await record(id, speech);
      await client.call('POST', path(id, 'end'));
      await client.waitForStatus(path(id, 'status'), ['completed']);
      return (await client.call<{ summary: { content: string }[] }>('GET', path(id, 'content'))).body.summary;
    };
    const clean = await noteOf(await client.createSession());
    // A word of a section the sandbox wrote from the audio (else of any: energy mode may find none).
    const written = clean.filter((section) => !isNothingFound(section));
    const said = (written.length > 0 ? written : clean)[0]!.content.match(/\w{4,}/)![0];

    const id = await client.createSession();
    const fault = (body: unknown) =>
      fetch(`${sandbox.url}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    // A request that names no text to find is refused by name, and nothing is altered by it.
    const refused = await fault({ action: 'alter_note', session_id: id, replace: 'x' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('find');
    expect(
      (await fault({ action: 'alter_note', session_id: id, find: said, replace: 'ALTERED' })).status,
    ).toBe(200);
    const altered = await noteOf(id);
    const changed = altered.flatMap((section, i) => (section.content === clean[i]!.content ? [] : [i]));
    expect(changed).toHaveLength(1);
    expect(altered[changed[0]!]!.content).toBe(clean[changed[0]!]!.content.replace(said, 'ALTERED'));
    // Once: the next session's note is the sandbox's own.
    expect((await noteOf(await client.createSession())).map((s) => s.content)).toEqual(
      clean.map((s) => s.content),
    );
  });
});
