import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HANDSHAKE_CLOSE } from '../../shared/browser-mode-handshake';
import { encodeAudioChunk } from '../../shared/contract';
import { createAppCore, type AppCore } from '../core/app-core';
import { createMemorySecretBox } from '../core/secrets/secret-box';
import { createJsonFileStorage } from '../core/json-file-storage';
import { silentLogger, systemClock, type Logger } from '../core/ports';
import { startBrowserHost, type BrowserHost } from './host';
import {
  callOnSocket,
  closeCodeOf,
  CONTRACT_PATH_LOOKALIKES,
  launchKeyOf,
  openAsPage,
  openRawSocket,
} from './testing/page-client';

let core: AppCore;
let host: BrowserHost;
let dataDir: string;
let warnings: string[];

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
  warnings = [];
  const log: Logger = { ...silentLogger, warn: (message) => warnings.push(message) };
  host = await startBrowserHost({
    core,
    renderer: { dir: rendererDir },
    port: 0,
    log,
    handshakeTimeoutMs: 300,
  });
});

afterEach(async () => {
  core.stop();
  await host.close();
});

const launchKey = () => launchKeyOf(host.launchUrl);
/** The app's page, opened with the launch key as the window does the first time. */
const openPage = async () => (await openAsPage(host.origin, launchKey())).socket;
const call = callOnSocket;

describe('browser mode host', () => {
  it('binds to loopback only', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves the app’s files to anyone on its own host name, under the CSP, kept in no cache and with no cookie', async () => {
    // The page and its files are the app's public code: the key is not sent for them (it is in
    // the address's fragment), and nothing a server could set for them reaches other ports.
    for (const path of ['/', '/?key=anything', '/index.html']) {
      const page = await fetch(`${host.origin}${path}`);
      expect(page.status, path).toBe(200);
      expect(await page.text()).toContain('<title>Ambient Scribe</title>');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('set-cookie')).toBeNull();
    }
    expect(new URL(host.launchUrl).search).toBe('');
    expect(new URL(host.launchUrl).hash).toMatch(/^#key=[\w-]{43}$/);
  });

  it('refuses requests addressed to another host name (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      request(`${host.origin}/`, { headers: { host: 'rebound.example' } }, (res) =>
        resolve(res.statusCode ?? 0),
      ).end();
    });
    expect(status).toBe(421);
  });

  it('refuses a contract socket from another origin, or with none, before any handshake', async () => {
    await expect(openRawSocket(host.origin, { origin: 'http://127.0.0.1:1' })).rejects.toThrow('refused 403');
    await expect(
      openRawSocket(host.origin, { origin: 'http://localhost:' + new URL(host.origin).port }),
    ).rejects.toThrow('refused 403');
    await expect(openRawSocket(host.origin, {})).rejects.toThrow('refused 403');
  });

  it('answers the contract only at its exact path: encoded, doubled, upper-case and other paths are refused with a status', async () => {
    const variants = [...CONTRACT_PATH_LOOKALIKES, '/', '/x'];
    for (const path of variants) {
      // From another origin (a page on another loopback port), and from our own: never opened.
      await expect(openRawSocket(host.origin, { origin: 'http://127.0.0.1:1' }, path), path).rejects.toThrow(
        'refused 404',
      );
      await expect(openRawSocket(host.origin, { origin: host.origin }, path), path).rejects.toThrow(
        'refused 404',
      );
    }
    // A plain request to a decoded variant is refused too (the router would serve it as the route).
    expect((await fetch(`${host.origin}/%63ontract`)).status).toBe(404);
    // The real path still opens from our own origin.
    (await openRawSocket(host.origin, { origin: host.origin })).close();
  });

  it('carries nothing on a socket before the handshake: no event, no answer, and it is closed with a code that says why', async () => {
    // Heartbeats go out every 50 ms here: an unauthenticated socket receives none.
    const silent = await openRawSocket(host.origin, { origin: host.origin });
    const received: string[] = [];
    silent.on('message', (data) => received.push(data.toString()));
    expect(await closeCodeOf(silent)).toBe(HANDSHAKE_CLOSE.timedOut);
    expect(received).toEqual([]);

    const firstFrames: (string | Buffer)[] = [
      JSON.stringify({ id: 1, verb: 'history.list' }),
      JSON.stringify({ hello: 'not-the-key' }),
      JSON.stringify({ hello: launchKey(), extra: 1 }),
      Buffer.from([1, 2, 3]),
      'not json',
    ];
    for (const frame of firstFrames) {
      const socket = await openRawSocket(host.origin, { origin: host.origin });
      const answers: string[] = [];
      socket.on('message', (data) => answers.push(data.toString()));
      const closed = closeCodeOf(socket);
      socket.send(frame);
      expect(await closed, String(frame)).toBe(HANDSHAKE_CLOSE.refused);
      expect(answers).toEqual([]);
    }
    // A welcome answered with anything but its confirmation: closed too, the contract untouched.
    const { socket } = await openAsPage(host.origin, launchKey(), { confirm: false });
    const closed = closeCodeOf(socket);
    socket.send(JSON.stringify({ id: 1, verb: 'history.list' }));
    expect(await closed).toBe(HANDSHAKE_CLOSE.refused);
  });

  it('lets the launch key open one page: each connection gets the next token and spends the one it presented', async () => {
    const first = await openAsPage(host.origin, launchKey());
    expect(await call(first.socket, 1, 'app.info')).toMatchObject({ ok: true });
    // The key is spent: a second page with the same address is refused, so is a guessed token.
    await expect(openAsPage(host.origin, launchKey())).rejects.toThrow(`closed ${HANDSHAKE_CLOSE.refused}`);
    // The page reloads: its token opens the next socket, which gets the token after that.
    const second = await openAsPage(host.origin, first.pageToken);
    expect(second.pageToken).not.toBe(first.pageToken);
    expect(await call(second.socket, 1, 'app.info')).toMatchObject({ ok: true });
    // A replay of anything presented before opens nothing.
    for (const spent of [launchKey(), first.pageToken]) {
      await expect(openAsPage(host.origin, spent)).rejects.toThrow(`closed ${HANDSHAKE_CLOSE.refused}`);
    }
    // The page's sockets stay open through all of that.
    expect(await call(second.socket, 2, 'app.info')).toMatchObject({ ok: true });
    first.socket.close();
    second.socket.close();
  });

  it('lets a page that reloaded during its handshake back in with whichever credential it kept', async () => {
    // The welcome arrived but the page went away before confirming: the key still opens once.
    const cut = await openAsPage(host.origin, launchKey(), { confirm: false });
    cut.socket.close();
    // Or it had kept the offered token: that opens too (one of them, never both after).
    const kept = await openAsPage(host.origin, cut.pageToken);
    expect(await call(kept.socket, 1, 'app.info')).toMatchObject({ ok: true });
    await expect(openAsPage(host.origin, launchKey())).rejects.toThrow(`closed ${HANDSHAKE_CLOSE.refused}`);
    kept.socket.close();
  });

  it('writes refused sockets to the log at most once a second, with a count', async () => {
    // A count from the test before (its refusals' window) lands up to a second later: let it pass.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    warnings.length = 0;
    const started = Date.now();
    for (let i = 0; i < 30; i++) {
      const socket = await openRawSocket(host.origin, { origin: host.origin });
      const closed = closeCodeOf(socket);
      socket.send(JSON.stringify({ hello: `guess-${i}` }));
      expect(await closed).toBe(HANDSHAKE_CLOSE.refused);
    }
    // The first refusal of each second as it comes and one count when the second closes
    // (throttled-warnings.ts): at most two lines per second the 30 refusals took (a loaded machine
    // may take more than one), never one line per socket.
    const seconds = Math.ceil((Date.now() - started) / 1_000);
    expect(warnings.length).toBeLessThanOrEqual(2 * seconds);
    expect(warnings.length).toBeLessThan(30);
    expect(warnings[0]).toContain('refused a contract socket');
  });

  it('carries the contract: verbs, validation, persistence and events', async () => {
    const socket = await openPage();

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
    const socket = await openPage();
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
    let credential = launchKey();
    for (const frame of ['not json', JSON.stringify({ verb: 'app.info' })]) {
      const { socket, pageToken } = await openAsPage(host.origin, credential);
      credential = pageToken;
      const code = await new Promise<number>((resolve) => {
        socket.once('close', (closeCode) => resolve(closeCode));
        socket.send(frame);
      });
      expect(code).toBe(1003);
    }
  });

  it('tells the core when the page’s socket closes (a reload or a closed tab), once per socket; a refused socket tells it nothing', async () => {
    let detached = 0;
    const original = core.rendererDetached.bind(core);
    core.rendererDetached = () => {
      detached++;
      original();
    };
    const stranger = await openRawSocket(host.origin, { origin: host.origin });
    const refused = closeCodeOf(stranger);
    stranger.send(JSON.stringify({ hello: 'guess' }));
    expect(await refused).toBe(HANDSHAKE_CLOSE.refused);
    const socket = await openPage();
    expect(detached).toBe(0);
    socket.close();
    await expect.poll(() => detached).toBe(1);
  });
});
