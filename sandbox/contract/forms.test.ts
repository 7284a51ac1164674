import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../server';
import { ServiceClient, syntheticSpeech } from '../test-support/service-client';
import { IDLE_OUTLIVES_THE_TEST } from '../test-support/idle-rule';
import { TOKEN_OUTLIVES_THE_FILE } from '../test-support/token-lifetime';

/** docs/protocol.md "Form filling": the eight endpoints and the templates list. */
let sandbox: Sandbox;
let client: ServiceClient;
const path = (id: string, what: string) => `/api/v1/form-filling/session/${id}/${what}`;
const customForm = {
  form_id: 'intake',
  title: 'Intake',
  fields: [
    { id: 'pain', label: 'Pain score', type: 'number' },
    { id: 'smoker', label: 'Smoker', type: 'boolean' },
  ],
};

beforeAll(async () => {
  sandbox = await startSandbox({
    timeScale: 0.01,
    asr: 'energy',
    minSpeechMs: 500,
    limitOverrides: { ...TOKEN_OUTLIVES_THE_FILE, ...IDLE_OUTLIVES_THE_TEST },
  });
  client = new ServiceClient(sandbox.url);
  // Single Auth Token: sdp_provider_id on every REST call, Login and Register included.
  client.providerHeader = 'nurse-1';
  await client.signIn({
    partner_id: 'demo-single-auth',
    partner_token: 'sandbox-single-auth-partner-token',
    provider_id: 'nurse-1',
  });
});
afterAll(() => sandbox.close());

async function createFormSession(): Promise<string> {
  const reply = await client.call<{ session_id: string }>('POST', '/api/v1/form-filling/session/create', {
    encounter_id: 'ward7',
  });
  expect(reply.status).toBe(201);
  return reply.body.session_id;
}

describe('form filling', () => {
  it('lists at least the four standard templates with typed fields', async () => {
    const reply = await client.call<{
      templates: { form_template_id: string; fields: { type: string }[] }[];
    }>('GET', '/api/v1/info/service-medical-form-templates');
    expect(reply.status).toBe(200);
    const ids = reply.body.templates.map((t) => t.form_template_id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'VITALS_ASSESSMENT',
        'NEURO_ASSESSMENT',
        'SKIN_ASSESSMENT',
        'RESPIRATORY_ASSESSMENT',
      ]),
    );
    for (const template of reply.body.templates) expect(template.fields.length).toBeGreaterThan(0);
  });

  it.each([
    [{ form_template_id: 'VITALS_ASSESSMENT', schema: customForm }, 'both'],
    [{}, 'neither'],
  ])('refuses an item with %j (%s) with 400 invalid_context_request', async (item, _which) => {
    const id = await createFormSession();
    const reply = await client.call('POST', path(id, 'context'), {
      context: { form_filling: { values: [item] } },
    });
    expect(reply).toMatchObject({
      status: 400,
      body: {
        message: expect.stringMatching(
          /^invalid_context_request: .*exactly one of form_template_id or schema/,
        ),
      },
    });
  });

  it('refuses an unknown template id', async () => {
    const id = await createFormSession();
    const reply = await client.call('POST', path(id, 'context'), {
      context: { form_filling: { values: [{ form_template_id: 'HOROSCOPE' }] } },
    });
    expect(reply.status).toBe(400);
  });

  it('POST replaces and PATCH merges by item key, mixing templates and schemas', async () => {
    const id = await createFormSession();
    const items = async () =>
      ((await (await fetch(`${sandbox.url}/__sandbox/sessions/${id}`)).json()) as { form_items: unknown[] })
        .form_items;
    await client.call('POST', path(id, 'context'), {
      context: { form_filling: { values: [{ form_template_id: 'VITALS_ASSESSMENT' }] } },
    });
    await client.call('PATCH', path(id, 'context'), {
      context: { form_filling: { values: [{ schema: customForm }] } },
    });
    expect(await items()).toHaveLength(2);
    // PATCH with the same key replaces that item only.
    await client.call('PATCH', path(id, 'context'), {
      context: { form_filling: { values: [{ schema: { ...customForm, title: 'Intake v2' } }] } },
    });
    expect(await items()).toEqual([
      { form_template_id: 'VITALS_ASSESSMENT' },
      { schema: { ...customForm, title: 'Intake v2' } },
    ]);
    // POST replaces everything.
    await client.call('POST', path(id, 'context'), {
      context: { form_filling: { values: [{ form_template_id: 'SKIN_ASSESSMENT' }] } },
    });
    expect(await items()).toEqual([{ form_template_id: 'SKIN_ASSESSMENT' }]);
  });

  it('streams on /ws/stream with the form session id, then serves structured data and takes feedback', async () => {
    const id = await createFormSession();
    await client.call('POST', path(id, 'context'), {
      context: {
        form_filling: { values: [{ form_template_id: 'VITALS_ASSESSMENT' }, { schema: customForm }] },
      },
    });
    const stream = await client.openStream(id);
    const pcm = syntheticSpeech([{ speechMs: 1500, silenceMs: 400 }]);
    stream.audioChunks(pcm);
    await stream.waitForAck(pcm.length);
    stream.event('EOF');
    await stream.closed;
    expect((await client.call('GET', path(id, 'structured-data'))).status).toBe(409);
    expect(await client.call('POST', path(id, 'end'))).toEqual({ status: 202, body: {} });
    expect(await client.waitForStatus(path(id, 'status'), ['completed', 'failed', 'skipped'])).toBe(
      'completed',
    );

    const data = await client.call<{
      forms: { form_id: string; form_template_id?: string; fields: { id: string; value: unknown }[] }[];
    }>('GET', path(id, 'structured-data'));
    expect(data.status).toBe(200);
    expect(data.body.forms.map((f) => f.form_id)).toEqual(['VITALS_ASSESSMENT', 'intake']);
    expect(data.body.forms[0]?.form_template_id).toBe('VITALS_ASSESSMENT');
    expect(data.body.forms[1]?.fields.map((f) => f.id)).toEqual(['pain', 'smoker']);

    const feedback = await client.call('POST', `/api/v1/form-filling/session/${id}/intake/feedback`, {
      rating: 4,
      comment: 'close',
      field_corrections: [{ id: 'pain', value: 3 }],
    });
    expect(feedback.status).toBe(201);
    const bad = await client.call('POST', `/api/v1/form-filling/session/${id}/intake/feedback`, {
      rating: 9,
    });
    expect(bad).toMatchObject({ status: 400, body: { message: expect.stringContaining('rating') } });
    expect(
      (await client.call('POST', `/api/v1/form-filling/session/${id}/nope/feedback`, { rating: 3 })).status,
    ).toBe(404);
  });

  it('keeps form sessions and ambient sessions apart', async () => {
    const id = await createFormSession();
    expect((await client.call('GET', `/api/v1/ambient/session/${id}/status`)).status).toBe(404);
  });
});
