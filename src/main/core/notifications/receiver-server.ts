import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNotificationReceiver, type ReceiverOptions } from './receiver';

/**
 * A minimal node:http mount of the notification receiver, for the desktop app (cheaper than a
 * framework) and for tests. It adds only what HTTP needs: routing, a body size limit, and answers
 * for whatever a client or a port scanner may throw at it. Loopback only, by design: a partner
 * exposing this to the service would put it behind its own reverse proxy and TLS.
 */

export interface ReceiverServerOptions extends ReceiverOptions {
  /** 0 (the default) lets the OS pick a free port. */
  port?: number;
  // protocol: Notifications (the spec's path is /webhooks/notification)
  path?: string;
  /** Larger bodies get 413; notifications are a few KiB. */
  maxBodyBytes?: number;
}

export interface RunningReceiver {
  /** The full notification URL, e.g. http://127.0.0.1:54321/webhooks/notification. */
  url: string;
  close(): Promise<void>;
}

export const DEFAULT_NOTIFICATION_PATH = '/webhooks/notification';
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export async function startNotificationReceiver(options: ReceiverServerOptions): Promise<RunningReceiver> {
  const path = options.path ?? DEFAULT_NOTIFICATION_PATH;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const receiver = createNotificationReceiver(options);

  const server = createServer((req, res) => {
    route(req, res).catch(() => {
      // handle() never throws, so this is a broken socket; there is nobody left to answer.
      res.destroy();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    req.on('error', () => res.destroy());
    const pathname = (req.url ?? '').split('?')[0];
    if (pathname !== path) {
      const shown = (pathname ?? '').slice(0, 100);
      return finish(res, 404, { code: 404, message: `not_found: no endpoint ${shown}` }, true);
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return finish(res, 405, { code: 405, message: `method_not_allowed: ${path} accepts POST only` }, true);
    }
    const rawBody = await readBody(req, maxBodyBytes);
    if (rawBody === undefined) {
      return finish(
        res,
        413,
        { code: 413, message: `payload_too_large: the limit is ${maxBodyBytes} bytes` },
        true,
      );
    }
    const answer = await receiver.handle({ headers: req.headers, rawBody });
    finish(res, answer.status, answer.body);
  }

  // Malformed HTTP (garbage on the socket) never reaches the handler; answer 400 and drop it.
  server.on('clientError', (_error, socket) => {
    // end() flushes the answer and then closes; a socket that can no longer be written is just dropped.
    if (socket.writable)
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  // Slow or stalled clients must not hold sockets forever; the service gives up after 5 s anyway.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The body as UTF-8, or undefined once it exceeds the limit (the rest is not buffered). */
function readBody(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** `unread`: the request body was not (fully) read, so the connection is closed rather than reused. */
function finish(res: ServerResponse, status: number, body: unknown, unread = false): void {
  if (res.headersSent || res.destroyed) return;
  const text = body === undefined ? '' : JSON.stringify(body);
  if (unread) res.setHeader('connection', 'close');
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
