import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LOOPBACK_REDIRECT_PATH } from './constants';

/**
 * The RFC 8252 loopback redirect receiver, as a native app runs it: an HTTP listener on 127.0.0.1
 * (a port the OS picks unless one is asked for) that takes exactly one authorization response and
 * closes.
 */

export interface LoopbackReceiver {
  /** http://127.0.0.1:<port>/callback, to send as redirect_uri. */
  redirectUri: string;
  /** The full URL the browser was redirected to (code, state, iss or error). */
  response: Promise<URL>;
  close(): Promise<void>;
}

const DONE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signed in</title></head>
<body><main><h1>Sign-in complete</h1><p>You can close this window and return to Ambient Scribe.</p></main></body>
</html>
`;

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    // A browser may keep its connection alive; the receiver has nothing more to say to it.
    server.closeAllConnections();
  });
}

export async function startLoopbackReceiver(port = 0): Promise<LoopbackReceiver> {
  let settle!: (url: URL) => void;
  const response = new Promise<URL>((resolve) => (settle = resolve));
  let received = false;
  let origin = 'http://127.0.0.1';

  const server = createServer((req, res) => {
    // Built from our own address, not the Host header: openid-client derives the redirect_uri it
    // sends to the token endpoint from this URL, and it must equal the one in the authorization request.
    const url = new URL(req.url ?? '/', origin);
    // Favicon probes and the like must not be taken for the authorization response.
    if (req.method !== 'GET' || url.pathname !== LOOPBACK_REDIRECT_PATH || received) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    received = true;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(DONE_PAGE, () => void closeServer(server));
    settle(url);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    redirectUri: `${origin}${LOOPBACK_REDIRECT_PATH}`,
    response,
    close: () => closeServer(server),
  };
}
