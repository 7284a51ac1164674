import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyReply } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LAUNCH_KEY_PARAMETER } from '../../shared/browser-mode-handshake';
import { RENDERER_CSP } from '../../shared/csp';
import type { AppCore } from '../core/app-core';
import { throttledWarnings } from '../core/logging/throttled-warnings';
import type { Logger } from '../core/ports';
import { createPageCapability, type PageCapability } from './page-capability';
import { runPageHandshake } from './page-handshake';
import { serveContractOverSocket } from './socket-transport';

/**
 * Where the page comes from: the built renderer (electron-vite's out/renderer), or, for `npm run
 * dev` only, a development server's request handler (Vite in middleware mode, with hot reload)
 * and the wider CSP its page needs (src/shared/csp.ts, devRendererCsp).
 */
export type RendererSource =
  | { dir: string }
  | { dev: { csp: string; handle(request: IncomingMessage, response: ServerResponse): void } };

export interface BrowserHostOptions {
  core: AppCore;
  renderer: RendererSource;
  /** 0 picks a free port. */
  port: number;
  log: Logger;
  capability?: PageCapability;
  /** How long a new contract socket has to identify itself (tests shorten it). */
  handshakeTimeoutMs?: number;
}

export interface BrowserHost {
  /** The address to open: its fragment carries the launch key, good for one page. */
  readonly launchUrl: string;
  /** The page's origin, e.g. http://127.0.0.1:5123. */
  readonly origin: string;
  close(): Promise<void>;
}

export const CONTRACT_SOCKET_PATH = '/contract';
const MAX_CONTRACT_FRAME_BYTES = 1024 * 1024;

/**
 * Browser mode: serves the renderer on 127.0.0.1 and carries the contract over a loopback
 * WebSocket. Every request must come to our own host name (no DNS rebinding). The page's files
 * are the app's public code and need nothing more; the contract socket must come from our own
 * origin, at exactly its path, and then prove it is the app's page (page-handshake.ts) before it
 * carries anything.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const capability = options.capability ?? createPageCapability();
  const warnRefused = throttledWarnings(options.log);
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  let origin = '';

  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_CONTRACT_FRAME_BYTES } });

  const { renderer } = options;
  const headers = {
    'Content-Security-Policy': `${'dev' in renderer ? renderer.dev.csp : RENDERER_CSP}; frame-ancestors 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };

  app.addHook('onRequest', async (request, reply) => {
    reply.headers(headers);

    if (!isOwnHost(request.headers.host, origin)) return refuse(reply, 421, 'wrong host');
    // The router decodes and forgives paths (/%63ontract is /contract to it), so the contract is
    // matched on the raw path, exactly: every WebSocket upgrade and every path that only decodes
    // or folds to the contract's is refused with a status unless it is the contract path itself.
    const path = request.url.split('?', 1)[0]!;
    const isContract = path === CONTRACT_SOCKET_PATH;
    if (!isContract && (request.headers.upgrade !== undefined || looksLikeContractPath(path))) {
      return refuse(reply, 404, 'not the contract path');
    }
    if (isContract && request.headers.origin !== origin) {
      return refuse(reply, 403, 'foreign origin');
    }
  });

  app.get(CONTRACT_SOCKET_PATH, { websocket: true }, (socket) => {
    runPageHandshake(socket, capability, () => serveContractOverSocket(socket, options.core, options.log), {
      warn: warnRefused,
      ...(options.handshakeTimeoutMs ? { timeoutMs: options.handshakeTimeoutMs } : {}),
    });
  });

  if ('dev' in renderer) {
    // Past the checks above, every other request is the development server's (it answers its own
    // 404s); it writes to the raw response, so the headers go there too.
    app.setNotFoundHandler((request, reply) => {
      reply.hijack();
      for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value);
      renderer.dev.handle(request.raw, reply.raw);
    });
  } else {
    // Its own Cache-Control (public, max-age=0) off: the page and its files are no-store, as above.
    await app.register(fastifyStatic, { root: renderer.dir, index: 'index.html', cacheControl: false });
  }

  await app.listen({ host: '127.0.0.1', port: options.port });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  origin = `http://127.0.0.1:${address.port}`;

  return {
    launchUrl: `${origin}/#${LAUNCH_KEY_PARAMETER}=${capability.launchKey}`,
    origin,
    close: () => app.close(),
  };
}

/** A path a lenient router could take for the contract's: decoded, slashes merged, any case. */
function looksLikeContractPath(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not decodable: the router will not find the contract in it either.
  }
  return (
    decoded
      .replace(/\/{2,}/g, '/')
      .replace(/\/$/, '')
      .toLowerCase() === CONTRACT_SOCKET_PATH
  );
}

function isOwnHost(hostHeader: string | undefined, origin: string): boolean {
  if (!hostHeader || !origin) return false;
  // Only the numeric loopback name, the one the launch address uses.
  return hostHeader === new URL(origin).host;
}

async function refuse(reply: FastifyReply, status: number, reason: string): Promise<FastifyReply> {
  return reply
    .code(status)
    .header('X-Refused-Because', reason)
    .type('text/html; charset=utf-8')
    .send(REFUSED_PAGE);
}

const REFUSED_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Ambient Scribe</title></head>
<body><main><h1>This page needs the app's launch address</h1>
<p>Browser mode only answers the address it printed when it started (http://127.0.0.1:…), and
only once (it carries a one-time key). Restart browser mode with <code>npm run start:browser</code>
and open the new one.</p></main></body></html>`;
