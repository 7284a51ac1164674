import {
  createServer,
  request as forward,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * The service as the app sees it, with every call written down: a loopback proxy in front of
 * the sandbox that forwards each request (and the audio WebSocket's upgrade) untouched and keeps
 * its method, path and time. A test shows with it that a locked or signed-out window makes no
 * call on the clinician's behalf (issue 29), which the sandbox alone cannot say.
 */
export interface CountingProxy {
  url: string;
  calls: { method: string; path: string; at: number }[];
  /**
   * Holds each request this long before forwarding it (0: none), as a slow network or a busy
   * machine would: a race between the app's own calls shows every time instead of now and then.
   */
  setLatency(ms: number): void;
  close(): Promise<void>;
}

export async function startCountingProxy(serviceUrl: string): Promise<CountingProxy> {
  const target = new URL(serviceUrl);
  const calls: CountingProxy['calls'] = [];
  // Upgraded sockets leave the server's books: closed by hand.
  const tunnels = new Set<{ destroy(): void }>();
  let latencyMs = 0;
  const server: Server = createServer((request, response) => {
    calls.push({ method: request.method ?? '', path: request.url ?? '', at: Date.now() });
    // The body waits in the request's buffer meanwhile (it is piped once forwarded).
    if (latencyMs > 0) setTimeout(() => forwardTo(request, response), latencyMs);
    else forwardTo(request, response);
  });
  const forwardTo = (request: IncomingMessage, response: ServerResponse) => {
    const upstream = forward(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  };
  server.on('upgrade', (request, socket, head) => {
    calls.push({ method: 'UPGRADE', path: request.url ?? '', at: Date.now() });
    const upstream = connect(Number(target.port), target.hostname, () => {
      const headers = [];
      for (let i = 0; i < request.rawHeaders.length; i += 2)
        headers.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      upstream.write(`${request.method} ${request.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    tunnels.add(socket).add(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    setLatency: (ms) => {
      latencyMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        for (const tunnel of tunnels) tunnel.destroy();
        server.close(() => resolve());
      }),
  };
}
