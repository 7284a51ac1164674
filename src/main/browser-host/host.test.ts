import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { encodeAudioChunk } from '../../shared/contract';
import { createAppCore, type AppCore } from '../core/app-core';
import { createMemorySecretBox } from '../core/secrets/secret-box';
import { createJsonFileStorage } from '../core/json-file-storage';
import { silentLogger, systemClock } from '../core/ports';
import { startBrowserHost, type BrowserHost } from './host';

let core: AppCore;
let host: BrowserHost;
let dataDir: string;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'scribe-host-'));
  const rendererDir = await mkdtemp(join(tmpdir(), 'scribe-renderer-'));
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Ambient Scribe</title>');
  core = await createAppCore({
    settingsStorage: createJsonFileStorage(join(dataDir, 'settings.json'), silentLogger),
    secrets: createMemorySecretBox(),
    appInfo: {
      name: 'Ambient Scribe',
      version: '1.2.3',
      mode: 'browser',
      platform: 'linux',
      runtime: { node: '20' },
      dataDirectory: dataDir,
    },
    log: silentLogger,
    clock: systemClock,
    heartbeatIntervalMs: 50,
  });
  host = await startBrowserHost({ core, renderer: { dir: rendererDir }, port: 0, log: silentLogger });
});

afterEach(async () => {
  core.stop();
  await host.close();
});

/** Opens the launch address the way a browser does and returns the cookie it is given. */
async function launchCookie(): Promise<string> {
  const response = await fetch(host.launchUrl, { redirect: 'manual' });
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe('/');
  const cookie = response.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/HttpOnly/);
  expect(cookie).toMatch(/SameSite=Strict/);
  return cookie.split(';')[0] as string;
}

function openSocket(headers: Record<string, string>, path = '/contract'): Promise<WebSocket> {
  const socket = new WebSocket(`${host.origin.replace('http', 'ws')}${path}`, { headers });
  return new Promise((resolve, reject) => {
    // A refusal is an answer with a status; an upgrade left hanging is a failure too.
    const timer = setTimeout(() => reject(new Error('no answer in 3 s')), 3_000);
    socket.once('close', () => clearTimeout(timer));
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

function call(socket: WebSocket, id: number, verb: string, payload?: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
      if (message.id === id) {
        socket.off('message', onMessage);
        resolve(message.result);
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, verb, payload }));
  });
}

describe('browser mode host', () => {
  it('binds to loopback only', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('refuses the page without the launch key, and with a wrong one', async () => {
    const bare = await fetch(`${host.origin}/`);
    expect(bare.status).toBe(403);
    expect(await bare.text()).toContain('launch address');
    expect((await fetch(`${host.origin}/?key=not-the-key`)).status).toBe(403);
    expect((await fetch(`${host.origin}/assets/index.js`)).status).toBe(403);
  });

  it('trades the launch key once: a second trade of the same address is refused', async () => {
    await launchCookie();
    const again = await fetch(host.launchUrl, { redirect: 'manual' });
    expect(again.status).toBe(403);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await again.text()).toContain('only once');
  });

  it('trades the key for a cookie, then serves the app under the CSP', async () => {
    const cookie = await launchCookie();
    const page = await fetch(`${host.origin}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Ambient Scribe</title>');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // Nothing of the app is kept in a cache: the page and its files alike.
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses requests addressed to another host name (DNS rebinding)', async () => {
    const cookie = await launchCookie();
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      request(`${host.origin}/`, { headers: { cookie, host: 'rebound.example' } }, (res) =>
        resolve(res.statusCode ?? 0),
      ).end();
    });
    expect(status).toBe(421);
  });

  it('refuses a contract socket without the cookie, or from another origin', async () => {
    await expect(openSocket({ origin: host.origin })).rejects.toThrow('refused 403');
    const cookie = await launchCookie();
    await expect(openSocket({ cookie, origin: 'http://127.0.0.1:1' })).rejects.toThrow('refused 403');
    await expect(openSocket({ cookie })).rejects.toThrow('refused 403');
  });

  it('answers the contract only at its exact path: encoded, doubled, upper-case and other paths are refused with a status', async () => {
    const cookie = await launchCookie();
    const variants = [
      '/%63ontract',
      '/c%6fntract',
      '/%63%6fntract',
      '//contract',
      '/CONTRACT',
      '/contract/',
      '/',
      '/x',
    ];
    for (const path of variants) {
      // From another origin (a page on another loopback port), and from our own: never opened.
      await expect(openSocket({ cookie, origin: 'http://127.0.0.1:1' }, path), path).rejects.toThrow(
        'refused 404',
      );
      await expect(openSocket({ cookie, origin: host.origin }, path), path).rejects.toThrow('refused 404');
    }
    // A plain request to a decoded variant is refused too (the router would serve it as the route).
    const plain = await fetch(`${host.origin}/%63ontract`, { headers: { cookie } });
    expect(plain.status).toBe(404);
    // The real path still opens from our own origin.
    (await openSocket({ cookie, origin: host.origin })).close();
  });

  it('carries the contract: verbs, validation, persistence and events', async () => {
    const socket = await openSocket({ cookie: await launchCookie(), origin: host.origin });

    expect(await call(socket, 1, 'app.info')).toMatchObject({
      ok: true,
      value: { mode: 'browser', version: '1.2.3' },
    });
    expect(await call(socket, 2, 'settings.set', { partnerId: 'clinic-9' })).toMatchObject({
      ok: true,
      value: { partnerId: 'clinic-9' },
    });
    expect(core.settings.get().partnerId).toBe('clinic-9');
    expect(
      await call(socket, 3, 'settings.set', { service: { kind: 'url', baseUrl: 'ftp://x' } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', fields: [{ field: 'service.baseUrl' }] },
    });

    const beat = await new Promise((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as { event?: string; payload?: unknown };
        if (message.event === 'heartbeat') resolve(message.payload);
      }),
    );
    expect(beat).toMatchObject({ seq: expect.any(Number), at: expect.any(Number) });
    socket.close();
  });

  it('takes binary frames as audio chunks and says why one is refused, keeping the socket open', async () => {
    const cookie = await launchCookie();
    const socket = await openSocket({ cookie, origin: host.origin });
    const refusals: { seq?: number; fields: { field: string }[] }[] = [];
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { event?: string; payload?: never };
      if (message.event === 'recorder.chunkRefused') refusals.push(message.payload!);
    });
    socket.send(Buffer.from([1, 2, 3]));
    // A well-formed chunk with no recording running: refused by the core, naming the chunk.
    socket.send(
      Buffer.from(encodeAudioChunk({ seq: 7, capturedAt: 1, pcm: new Uint8Array(3_200), speech: true })),
    );
    await expect.poll(() => refusals.length).toBe(2);
    expect(refusals[0]).toMatchObject({ fields: [{ field: 'chunk' }] });
    expect(refusals[1]).toMatchObject({ seq: 7 });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });

  it('closes a socket that sends text other than a contract call', async () => {
    const cookie = await launchCookie();
    for (const frame of ['not json', JSON.stringify({ verb: 'app.info' })]) {
      const socket = await openSocket({ cookie, origin: host.origin });
      const code = await new Promise<number>((resolve) => {
        socket.once('close', (closeCode) => resolve(closeCode));
        socket.send(frame);
      });
      expect(code).toBe(1003);
    }
  });

  it('tells the core when the page’s socket closes (a reload or a closed tab), once per socket', async () => {
    const cookie = await launchCookie();
    let detached = 0;
    const original = core.rendererDetached.bind(core);
    core.rendererDetached = () => {
      detached++;
      original();
    };
    const socket = await openSocket({ cookie, origin: host.origin });
    expect(detached).toBe(0);
    socket.close();
    await expect.poll(() => detached).toBe(1);
  });
});
