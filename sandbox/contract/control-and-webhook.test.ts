import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../src/shared/service';
import { startSandbox, type Sandbox } from '../server';
import { ServiceClient, syntheticSpeech } from '../test-support/service-client';
import { IDLE_OUTLIVES_THE_TEST } from '../test-support/idle-rule';
import { TOKEN_OUTLIVES_THE_FILE } from '../test-support/token-lifetime';
import { startNotificationReceiver } from '../../src/main/core/notifications/receiver-server';

/** The notification webhook end to end, and the /__sandbox/ control API. */
const secret = 'contract-test-webhook-secret';
let sandbox: Sandbox;
let client: ServiceClient;
let receiver: Awaited<ReturnType<typeof startNotificationReceiver>>;
const received: Notification[] = [];

beforeAll(async () => {
  receiver = await startNotificationReceiver({ secret, onNotification: (n) => void received.push(n) });
  sandbox = await startSandbox({
    timeScale: 0.01,
    asr: 'energy',
    minSpeechMs: 500,
    partners: [
      {
        partner_id: 'hooked',
        auth_model: 'bearer',
        partner_token: 'hooked-partner-token-123',
        notification_url: receiver.url,
        webhook_secret: secret,
      },
    ],
    // expire_tokens is the fault that ends tokens here; time alone must not (issue 36).
    limitOverrides: { ...TOKEN_OUTLIVES_THE_FILE, ...IDLE_OUTLIVES_THE_TEST },
  });
  client = new ServiceClient(sandbox.url);
  await client.signIn({
    partner_id: 'hooked',
    partner_token: 'hooked-partner-token-123',
    provider_id: 'dr-hook',
  });
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

async function recordAndEnd(id: string): Promise<void> {
  const stream = await client.openStream(id);
  const pcm = syntheticSpeech([{ speechMs: 1500, silenceMs: 300 }]);
  stream.audioChunks(pcm);
  await stream.waitForAck(pcm.length);
  stream.event('EOF');
  await stream.closed;
  await client.call('POST', `/api/v1/ambient/session/${id}/end`);
}

async function waitFor<T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('notifications', () => {
  it('delivers a signed success notification with links the partner can follow', async () => {
    const id = await client.createSession('encHook');
    await recordAndEnd(id);
    const note = await waitFor(() => received.find((n) => n.session_id === id));
    expect(note).toMatchObject({
      status: 'success',
      encounter_id: 'encHook',
      additional_info: { asr: 'energy' },
    });
    if (note.status !== 'success') throw new Error('expected success');
    expect(note.sessions).toEqual([{ session_id: id, status: 'completed' }]);
    const contentLink = note._links?.contents?.[0];
    expect(contentLink?.method).toBe('GET');
    const followed = await fetch(contentLink?.href ?? '', { headers: client.headers() });
    expect(followed.status).toBe(200);
    expect(Object.keys(note._links ?? {}).sort()).toEqual([
      'contents',
      'encounter_content',
      'status',
      'transcripts',
    ]);
  });

  it('delivers a failure notification with an error code when processing fails', async () => {
    const id = await client.createSession('encFail');
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'fail_processing', session_id: id }),
    });
    await recordAndEnd(id);
    const note = await waitFor(() => received.find((n) => n.session_id === id));
    expect(note).toMatchObject({ status: 'failure', error_code: 'ERROR_CODE_INTERNAL' });
  });

  it('lists deliveries and their outcome in the control API, without the secret', async () => {
    const list = async () => {
      const body = await (await fetch(`${sandbox.url}/__sandbox/notifications`)).text();
      expect(body).not.toContain(secret);
      return (JSON.parse(body) as { deliveries: { outcome: string }[] }).deliveries;
    };
    expect((await list()).length).toBeGreaterThanOrEqual(2);
    // The receiver may have the notification a moment before the sender records its answer
    // (seen once on a loaded machine): each outcome is read once it is recorded.
    await expect
      .poll(async () => (await list()).every((d) => d.outcome === 'delivered'), { timeout: 5_000 })
      .toBe(true);
  });
});

describe('control API', () => {
  it('serves what the service received as a WAV file', async () => {
    const id = await client.createSession();
    const stream = await client.openStream(id);
    const pcm = syntheticSpeech([{ speechMs: 500, silenceMs: 0 }]);
    stream.audioChunks(pcm);
    await stream.waitForAck(pcm.length);
    const wav = Buffer.from(
      await (await fetch(`${sandbox.url}/__sandbox/sessions/${id}/audio.wav`)).arrayBuffer(),
    );
    expect(wav.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.readUInt32LE(24)).toBe(16_000);
    expect(wav.subarray(44).equals(pcm)).toBe(true);
    stream.event('EOF');
    await stream.closed;
  });

  it('answers the next N REST calls with 500, then recovers', async () => {
    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'fail_rest', count: 2 }),
    });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await client.call('GET', '/api/v1/info/service-medical-form-templates')).status);
    expect(statuses).toEqual([500, 500, 200]);
  });

  it('drops the current stream without a close frame, and the next one on connect', async () => {
    const id = await client.createSession();
    const stream = await client.openStream(id);
    const reply = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'drop_stream', which: 'current', session_id: id }),
    });
    expect(reply.status).toBe(200);
    expect((await stream.closed).code).toBe(1006);

    await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'drop_stream', which: 'next' }),
    });
    const next = await client.openStream(id).catch(() => undefined);
    if (next) expect((await next.closed).code).toBe(1006);
    const again = await client.openStream(id);
    again.event('EOF');
    expect((await again.closed).code).toBe(1000);
  });

  it('expires every token issued so far: open streams close with 4001, REST answers 401, a new login works', async () => {
    const id = await client.createSession();
    const stream = await client.openStream(id);
    const pcm = syntheticSpeech([{ speechMs: 300, silenceMs: 0 }]);
    stream.audioChunks(pcm);
    await stream.waitForAck(pcm.length);
    const expiredToken = client.token!;

    const reply = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'expire_tokens' }),
    });
    expect(reply.status).toBe(200);
    expect(await stream.closed).toEqual({ code: 4001, reason: 'token expired' });
    // The stream's last ACK before the close counted every byte (the client resumes from it).
    expect(stream.lastAck()).toBe(pcm.length);

    const refused = await client.call('GET', `/api/v1/ambient/session/${id}/status`);
    expect(refused).toEqual({
      status: 401,
      body: { code: 401, message: 'invalid_sdp_token: token expired' },
    });
    await expect(client.openStream(id)).rejects.toMatchObject({ status: 401 });

    // A token issued after the fault is valid: the session continues where it stopped.
    await client.signIn({
      partner_id: 'hooked',
      partner_token: 'hooked-partner-token-123',
      provider_id: 'dr-hook',
    });
    expect(client.token).not.toBe(expiredToken);
    expect((await client.call('GET', `/api/v1/ambient/session/${id}/status`)).status).toBe(200);
    const resumed = await client.openStream(id);
    await resumed.waitForAck(pcm.length);
    resumed.event('EOF');
    expect((await resumed.closed).code).toBe(1000);
    const session = (await (await fetch(`${sandbox.url}/__sandbox/sessions/${id}`)).json()) as {
      received_bytes: number;
      connections: number;
      timeline: { type: string; detail?: string }[];
    };
    expect(session.received_bytes).toBe(pcm.length);
    expect(session.connections).toBe(2);
    expect(session.timeline).toContainEqual(
      expect.objectContaining({ type: 'close:4001', detail: 'token expired' }),
    );
  });

  it('refuses a malformed fault with 400 naming the problem', async () => {
    const reply = await fetch(`${sandbox.url}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'explode' }),
    });
    expect(reply.status).toBe(400);
  });
});
