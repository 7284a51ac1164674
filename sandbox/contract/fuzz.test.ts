import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSandbox, type Sandbox } from '../server';
import { ServiceClient } from '../test-support/service-client';
import { TOKEN_OUTLIVES_THE_FILE } from '../test-support/token-lifetime';

/**
 * Nothing a client sends may produce a 5xx or crash the sandbox: thousands of malformed bodies,
 * headers, paths and stream frames from a seeded generator (reproducible), against a real server.
 */
let sandbox: Sandbox;
let client: ServiceClient;
let sessionId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ timeScale: 0.01, asr: 'energy', limitOverrides: TOKEN_OUTLIVES_THE_FILE });
  client = new ServiceClient(sandbox.url);
  await client.signIn({
    partner_id: 'demo-bearer',
    partner_token: 'sandbox-bearer-partner-token',
    provider_id: 'dr-fuzz',
  });
  sessionId = await client.createSession();
});
afterAll(() => sandbox.close());

function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

const PATHS = [
  '/api/v1/auth/login',
  '/api/v1/auth/register',
  '/api/v1/ambient/session/create',
  '/api/v1/ambient/session/{id}/context',
  '/api/v1/ambient/session/{id}/end',
  '/api/v1/ambient/session/{id}/status',
  '/api/v1/ambient/session/{id}/content',
  '/api/v1/ambient/session/{id}/transcript',
  '/api/v1/ambient/encounter/{enc}/content',
  '/api/v1/form-filling/session/create',
  '/api/v1/form-filling/session/{id}/context',
  '/api/v1/form-filling/session/{id}/end',
  '/api/v1/form-filling/session/{id}/structured-data',
  '/api/v1/form-filling/session/{id}/{id}/feedback',
  '/api/v1/info/service-medical-form-templates',
  '/__sandbox/faults',
  '/__sandbox/sessions/{id}',
  '/idp/token',
  '/%',
  '/api/v1/../../etc/passwd',
];

function randomValue(r: ReturnType<typeof prng>, depth = 0): unknown {
  switch (r.int(depth > 3 ? 6 : 9)) {
    case 0:
      return null;
    case 1:
      return r.int(2) === 0;
    case 2:
      return r.pick([0, -1, 1e308, -0.5, 2 ** 53, Number.MAX_SAFE_INTEGER]);
    case 3:
      return r.pick([
        '',
        'x',
        'a'.repeat(300),
        '💥',
        '\u0000',
        '../',
        '2999-13-45',
        'MALE',
        'VITALS_ASSESSMENT',
      ]);
    case 4:
      return r.pick(['encounter_id', 'ambient_session_id', 'partner_id', 'rating']);
    case 5:
      return 'b'.repeat(r.int(5000));
    case 6:
      return Array.from({ length: r.int(4) }, () => randomValue(r, depth + 1));
    default: {
      const keys = [
        'encounter_id',
        'session_group_id',
        'ambient_session_id',
        'partner_id',
        'partner_token',
        'provider_id',
        'provider_name',
        'provider_org_id',
        'sections',
        'patient_info',
        'date_of_birth',
        'sex',
        'context',
        'form_filling',
        'values',
        'form_template_id',
        'schema',
        'fields',
        'rating',
        'action',
        'which',
        'count',
        '__proto__',
        'constructor',
      ];
      return Object.fromEntries(
        Array.from({ length: r.int(5) }, () => [r.pick(keys), randomValue(r, depth + 1)]),
      );
    }
  }
}

function randomBody(r: ReturnType<typeof prng>): string | Buffer | undefined {
  switch (r.int(6)) {
    case 0:
      return undefined;
    case 1:
      return JSON.stringify(randomValue(r)).slice(0, r.int(200));
    case 2:
      return Buffer.from(Array.from({ length: r.int(300) }, () => r.int(256)));
    case 3:
      return 'x'.repeat(1024 * 1024 + 10);
    default:
      return JSON.stringify(randomValue(r));
  }
}

/** The HTTP status, or "closed" when the server cut an oversized upload short (after its 413). */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<number | 'closed'> {
  const oversized = body !== undefined && body.length > 1024 * 1024;
  return new Promise((resolve, reject) => {
    const req = request(`${sandbox.url}${path}`, { method, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      const cutShort =
        error.code === 'ECONNRESET' || error.code === 'EPIPE' || error.message === 'socket hang up';
      if (oversized && cutShort) resolve('closed');
      else
        reject(
          new Error(`${method} ${path} ${JSON.stringify(headers)} (${body?.length} bytes): ${error.message}`),
        );
    });
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

describe('fuzz', () => {
  // 3,000 calls one after another: about 10 s alone, twice that beside the other files on a
  // busy 2-core machine (CI), more than 60 s on one half as fast (issue 36). The count is the
  // test, not the time: the deadline only stops a hung server.
  it('answers 3,000 malformed REST calls with no 5xx', { timeout: 180_000 }, async () => {
    const r = prng(20261122);
    const serverErrors: string[] = [];
    for (let i = 0; i < 3_000; i++) {
      const method = r.pick(['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS']);
      const path = r
        .pick(PATHS)
        .replaceAll('{id}', r.pick([sessionId, 'x', '%00', 'a'.repeat(400)]))
        .replaceAll('{enc}', r.pick(['enc1', '!!']));
      const headers: Record<string, string> = {};
      if (r.int(3) > 0)
        headers['content-type'] = r.pick([
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
        ]);
      if (r.int(2) === 0) headers['sdp_service_token'] = r.pick([client.token ?? '', 'garbage', 'a.b.c', '']);
      if (r.int(4) === 0) headers['sdp_provider_id'] = r.pick(['dr-fuzz', '', 'x'.repeat(1000)]);
      const status = await send(
        method,
        path,
        headers,
        method === 'GET' || method === 'OPTIONS' ? undefined : randomBody(r),
      );
      if (status !== 'closed' && status >= 500) serverErrors.push(`${method} ${path} → ${status}`);
    }
    expect(serverErrors).toEqual([]);
    expect((await client.call('GET', '/api/v1/info/service-medical-form-templates')).status).toBe(200);
  });

  it('survives 600 malformed stream frames and upgrades', { timeout: 120_000 }, async () => {
    const r = prng(7);
    let socket: WebSocket | undefined;
    for (let i = 0; i < 600; i++) {
      if (!socket || socket.readyState !== WebSocket.OPEN) {
        socket = await new Promise<WebSocket | undefined>((resolve) => {
          const headers: Record<string, string> =
            r.int(5) === 0
              ? { sdp_service_token: 'junk', ambient_session_id: 'x' }
              : client.headers({ ambient_session_id: sessionId });
          const ws = new WebSocket(`${sandbox.url.replace('http', 'ws')}/ws/stream`, { headers });
          ws.once('open', () => resolve(ws));
          ws.once('error', () => resolve(undefined));
          ws.once('unexpected-response', (_q, res) => {
            expect(res.statusCode ?? 0).toBeLessThan(500);
            resolve(undefined);
          });
        });
        if (!socket) continue;
      }
      const frame = r.pick([
        () => JSON.stringify(randomValue(r)),
        () =>
          JSON.stringify({
            type: 'AUDIO',
            data: r.pick(['', '====', 'AAAA', Buffer.alloc(r.int(40_000)).toString('base64')]),
          }),
        () =>
          JSON.stringify({
            type: 'EVENT',
            event: r.pick(['PAUSE', 'RESUME', 'KEEP_ALIVE', 'NOPE', 5, null]),
          }),
        () => Buffer.from([r.int(256), r.int(256)]),
      ])();
      socket.send(frame);
      await new Promise((res) => setTimeout(res, 1));
    }
    socket?.terminate();
    expect((await client.call('GET', `/api/v1/ambient/session/${sessionId}/status`)).status).toBe(200);
  });
});
