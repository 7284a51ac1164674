import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Notification } from '../../../shared/service';
import {
  startNotificationReceiver,
  type ReceiverServerOptions,
  type RunningReceiver,
} from './receiver-server';
import { signNotification } from './signature';
import { SECRET, successPayload } from '../../../../sandbox/webhook/test-helpers';

let running: RunningReceiver | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function start(options: Partial<ReceiverServerOptions> = {}) {
  const received: Notification[] = [];
  running = await startNotificationReceiver({
    secret: SECRET,
    onNotification: (n) => void received.push(n),
    ...options,
  });
  return { url: running.url, received };
}

function signedPost(body: string): RequestInit {
  const generatedAt = String(Date.now());
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-event-name': 'session_summary_generated',
      'generated-at': generatedAt,
      'X-API-Key': signNotification(SECRET, generatedAt, body),
    },
    body,
  };
}

/** Raw bytes on a socket, for what fetch refuses to send; resolves with whatever came back. */
function rawExchange(url: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
  });
}

describe('startNotificationReceiver', () => {
  it('listens on 127.0.0.1 at /webhooks/notification and answers a signed notification with 200', async () => {
    const { url, received } = await start();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks\/notification$/);
    const payload = successPayload();
    const response = await fetch(url, signedPost(JSON.stringify(payload)));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'ok' });
    expect(received).toEqual([payload]);
    // The query string is not part of the route.
    expect((await fetch(`${url}?attempt=2`, signedPost(JSON.stringify(payload)))).status).toBe(200);
    expect(received).toHaveLength(1);
  });

  it('serves the protocol errors as {code, message} JSON', async () => {
    const { url } = await start();
    const unsigned = await fetch(url, { method: 'POST', body: JSON.stringify(successPayload()) });
    expect(unsigned.status).toBe(401);
    expect(unsigned.headers.get('content-type')).toBe('application/json');
    expect(await unsigned.json()).toEqual({
      code: 401,
      message: expect.stringMatching(/^invalid_signature: /),
    });
    const empty = await fetch(url, signedPost(''));
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ code: 400, message: 'invalid_request: the body is empty' });
  });

  it('answers 404 to other paths and 405 to other methods', async () => {
    const { url } = await start({ path: '/hooks/scribe' });
    expect(url.endsWith('/hooks/scribe')).toBe(true);
    const other = await fetch(new URL('/webhooks/notification', url), signedPost('{}'));
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ code: 404 });
    const get = await fetch(url);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('refuses oversized bodies with 413, with or without Content-Length, and keeps serving', async () => {
    const { url, received } = await start({ maxBodyBytes: 64 * 1024 });
    const big = JSON.stringify({ ...successPayload(), error_detail: 'x'.repeat(200 * 1024) });
    const declared = await fetch(url, signedPost(big));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ code: 413 });

    const chunk = new TextEncoder().encode('y'.repeat(16 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 16; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const chunked = await fetch(url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);

    expect((await fetch(url, signedPost(JSON.stringify(successPayload())))).status).toBe(200);
    expect(received).toHaveLength(1);
  });

  it('survives garbage: malformed HTTP, binary bodies, broken JSON, a throwing handler', async () => {
    let calls = 0;
    const { url } = await start({
      onNotification: () => {
        calls++;
        if (calls === 1) throw new Error('store unavailable');
      },
    });
    expect(await rawExchange(url, '\x00\x01GARBAGE \xff\r\n\r\n')).toMatch(/^HTTP\/1\.1 400/);
    expect(
      await rawExchange(url, 'POST /webhooks/notification HTTP/1.1\r\nContent-Length: nope\r\n\r\n'),
    ).toMatch(/^HTTP\/1\.1 400/);
    const binary = await fetch(url, { method: 'POST', body: new Uint8Array([0xff, 0xfe, 0x00, 0x80]) });
    expect(binary.status).toBe(401);
    expect((await fetch(url, signedPost('{"status":'))).status).toBe(400);
    expect((await fetch(url, signedPost('\uFEFF\u0000'))).status).toBe(400);

    const body = JSON.stringify(successPayload());
    const failed = await fetch(url, signedPost(body));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ code: 500, message: 'internal_error: store unavailable' });
    expect((await fetch(url, signedPost(body))).status).toBe(200);
    expect(calls).toBe(2);
  });
});
