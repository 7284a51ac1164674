import { createServer, request, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { holdUntilReady } from './hold-until-ready';

let server: Server;
afterEach(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

async function listening(): Promise<{ port: number; hold: ReturnType<typeof holdUntilReady> }> {
  server = createServer();
  const hold = holdUntilReady(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, hold };
}

function get(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path: '/ping' }, (response) => {
      let body = '';
      response.on('data', (data) => (body += data));
      response.on('end', () => resolve(`${response.statusCode} ${body}`));
    })
      .on('error', reject)
      .end();
  });
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a server that listens before its routes exist', () => {
  it('answers a request and an upgrade that came before it was open, once it is, and none before', async () => {
    const { port, hold } = await listening();
    const events: string[] = [];
    const answered = get(port).then((answer) => events.push(`request ${answer}`));
    const socket = new WebSocket(`ws://127.0.0.1:${port}/stream`);
    const opened = new Promise<void>((resolve, reject) => {
      socket.on('open', () => {
        events.push('upgrade open');
        resolve();
      });
      socket.on('error', reject);
    });
    await tick(300);
    // Held: without the hold the request had no listener and the upgrade no answer, for good.
    expect(events).toEqual([]);

    const sockets = new WebSocketServer({ noServer: true });
    hold.upgrades.on('upgrade', (req, raw, head) => sockets.handleUpgrade(req, raw, head, () => {}));
    hold.setRequestHandler((_req, res) => res.end('pong'));
    hold.open();
    await Promise.all([answered, opened]);
    expect(events.sort()).toEqual(['request 200 pong', 'upgrade open']);
    // And what comes after goes straight through.
    expect(await get(port)).toBe('200 pong');
    socket.terminate();
    sockets.close();
  });

  it('survives an upgrade whose client gave up while held, and goes on answering', async () => {
    const { port, hold } = await listening();
    const socket = new WebSocket(`ws://127.0.0.1:${port}/stream`);
    socket.on('error', () => {});
    await tick(200);
    socket.terminate();
    await tick(200);
    // Whatever reaches the plugin then is a socket whose client is gone: its errors must not
    // be unhandled (an unhandled socket error would end the process).
    hold.upgrades.on('upgrade', (_req, raw: Duplex) => {
      raw.write('HTTP/1.1 101 Switching Protocols\r\n\r\n');
      raw.destroy();
    });
    hold.setRequestHandler((_req, res) => res.end('pong'));
    hold.open();
    await tick(100);
    expect(await get(port)).toBe('200 pong');
  });
});
