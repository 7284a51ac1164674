import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The RFC 8252 loopback redirect: an HTTP listener on 127.0.0.1 (section 7.3: the IP literal, not
 * "localhost"; a port the OS picks) that waits for exactly one authorization response carrying the
 * state this sign-in sent, answers the browser with a short page, and closes.
 */

export interface LoopbackRedirect {
  /** http://127.0.0.1:<port><path>, sent as redirect_uri. */
  readonly redirectUri: string;
  /** The full URL the browser was sent to (code or error, state, iss). */
  readonly response: Promise<URL>;
  close(): Promise<void>;
}

const page = (title: string, text: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body style="font-family: system-ui, sans-serif; margin: 3rem;"><main><h1>${title}</h1><p>${text}</p></main></body>
</html>
`;

const DONE = page('Sign-in complete', 'You can close this tab and return to Ambient Scribe.');
const FAILED = page('Sign-in not completed', 'Return to Ambient Scribe to try again.');
const NOT_CURRENT = page(
  'Sign-in link expired',
  'This sign-in is not the one Ambient Scribe is waiting for. Return to the app and start again.',
);

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    // A browser keeps its connection alive; the listener has nothing more to say to it.
    server.closeAllConnections();
  });
}

export async function startLoopbackRedirect(options: {
  path: string;
  expectedState: string;
}): Promise<LoopbackRedirect> {
  let settle!: (url: URL) => void;
  const response = new Promise<URL>((resolve) => (settle = resolve));
  let received = false;
  let origin = 'http://127.0.0.1';

  const server = createServer((req, res) => {
    const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
    // Built from our own address, never the Host header: the token request must repeat the
    // redirect_uri of the authorization request exactly.
    const url = new URL(req.url ?? '/', origin);
    if (req.method !== 'GET' || url.pathname !== options.path || received) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    // Another page (or another program) hitting the port does not end this sign-in: only the
    // answer to our own request, recognised by its state, does.
    if (url.searchParams.get('state') !== options.expectedState) {
      res.writeHead(400, headers).end(NOT_CURRENT);
      return;
    }
    received = true;
    res.writeHead(200, headers);
    res.end(url.searchParams.has('code') ? DONE : FAILED, () => void closeServer(server));
    settle(url);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return { redirectUri: `${origin}${options.path}`, response, close: () => closeServer(server) };
}
