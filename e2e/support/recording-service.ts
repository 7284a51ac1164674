import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a service received: enough to tell whether a credential or a visit reached it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  /** Headers and body as text, to search for a token. */
  text: string;
  upgrade: boolean;
}

/**
 * Another service on 127.0.0.1 (issue 28's "changed address"): it answers every call with 401
 * and keeps each request whole, headers, body and WebSocket upgrades, so a test can show that the
 * partner token and a spooled visit never reached it. It stands for a host an attacker controls.
 */
export interface RecordingService {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startRecordingService(): Promise<RecordingService> {
  const received: ReceivedRequest[] = [];
  const describe = (request: IncomingMessage, body: string, upgrade: boolean): ReceivedRequest => ({
    method: request.method ?? '',
    path: request.url ?? '',
    text: `${JSON.stringify(request.headers)}\n${body}`,
    upgrade,
  });
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(describe(request, Buffer.concat(chunks).toString('utf8'), false));
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'invalid_sdp_token', message: 'not this service' }));
    });
  });
  server.on('upgrade', (request, socket) => {
    received.push(describe(request, '', true));
    socket.end('HTTP/1.1 401 Unauthorized\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
