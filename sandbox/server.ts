import fastifyWebsocket from '@fastify/websocket';
import Fastify from 'fastify';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerAmbientRoutes } from './ambient/routes';
import { createProviderRegistry } from './auth/provider-registry';
import { registerAuthRoutes } from './auth/routes';
import { createServiceTokens } from './auth/service-tokens';
import { registerControlRoutes } from './control/routes';
import { createFaultState } from './control/faults';
import { installErrorHandling, sendError } from './errors';
import { registerFormRoutes } from './forms/routes';
import { mountIdp } from './idp/mount';
import { verifyIdToken } from './idp/verify-id-token';
import { createTiming, type LimitName } from './limits';
import { BUILTIN_IDP, DEFAULT_PARTNERS, loadPartnersFile, type Partner } from './partners';
import { jsonFile, removeUnsealedFiles, type AtRestCipher } from './persistence';
import { extractForms } from './processing/form-extractor';
import { FORM_TEMPLATES } from './processing/form-templates';
import { generateNote } from './processing/note-generator';
import { recognize } from './processing/recognize';
import type { AsrMode } from './processing/types';
import { requireCaller } from './request-caller';
import { createProcessingRunner } from './sessions/processing-runner';
import { createSessionStore } from './sessions/session-store';
import { holdUntilReady } from './startup/hold-until-ready';
import { registerStreamRoute } from './stream/stream-route';
import { createWebhookSender } from './webhook/sender';

export interface SandboxOptions {
  /** 0 (default) picks a free port. The sandbox binds 127.0.0.1 only. */
  port?: number;
  partners?: Partner[];
  partnersFile?: string;
  /** Multiplies every service timer (0.01 = a hundred times faster). */
  timeScale?: number;
  /** Replaces single limits (real ms before scaling); for tests of one timer. */
  limitOverrides?: Partial<Record<LimitName, number>>;
  asr?: AsrMode;
  /** Keeps sessions, audio, providers and the token key across restarts. Default: a temp dir. */
  dataDir?: string;
  /** Less detected speech than this (ms) → status skipped. */
  minSpeechMs?: number;
  /**
   * Send the ACK extension on audio streams (on by default). Off, the sandbox behaves like a
   * service that follows only the interface (`--no-ack`).
   */
  ack?: boolean;
  /** The /__sandbox/ test control API (on by default). */
  controlApi?: boolean;
  /**
   * Answer only requests addressed to 127.0.0.1:<port> (421 otherwise), so a page on some other
   * name that resolves to loopback (DNS rebinding) cannot reach it. On for the app's built-in demo.
   */
  onlyOwnHost?: boolean;
  /**
   * Seal everything written to `dataDir` (sessions, audio, providers, the token key), and remove
   * files an earlier, unsealed run left there. The app's built-in demo keeps nothing in the clear.
   */
  atRest?: AtRestCipher;
  /**
   * The built-in IdP's client becomes confidential with this secret: a code is redeemed only by
   * who holds it (the app's built-in demo), so nothing else on the computer signs in through it.
   */
  idpClientSecret?: string;
  log?: SandboxLog;
}

export interface SandboxLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface Sandbox {
  /** http://127.0.0.1:PORT — the REST base is `${url}/api/v1`, the stream `${ws url}/ws/stream`. */
  readonly url: string;
  /** The built-in identity provider's issuer (`${url}/idp`). */
  readonly idpIssuer: string;
  readonly partners: ReadonlyMap<string, Partner>;
  /** Deletes the sessions `drop` picks, record and audio; returns their ids. */
  forgetSessions(drop: (sessionId: string) => boolean): Promise<string[]>;
  close(): Promise<void>;
}

const quietLog: SandboxLog = { info() {}, warn() {}, error() {} };

/** Starts the sandbox: the documentation service emulator (docs/protocol.md) on 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const log = options.log ?? quietLog;
  const timing = createTiming(options.timeScale ?? 1, options.limitOverrides);
  const partnerList =
    options.partners ??
    (options.partnersFile ? await loadPartnersFile(options.partnersFile) : DEFAULT_PARTNERS);
  const partners = new Map(partnerList.map((p) => [p.partner_id, { ...p }]));
  const ownDataDir = options.dataDir ? undefined : await mkdtemp(join(tmpdir(), 'scribe-sandbox-'));
  const dataDir = options.dataDir ?? (ownDataDir as string);

  // Listen first: the IdP's issuer and the notification links need the real port. What arrives
  // before the routes are in place waits for them (startup/hold-until-ready.ts).
  const server: Server = createServer();
  const hold = holdUntilReady(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the sandbox has no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  const idpIssuer = `${url}/idp`;
  const resolveIdp = (value: string, what: 'issuer' | 'jwks') =>
    value === BUILTIN_IDP ? (what === 'issuer' ? idpIssuer : `${idpIssuer}/jwks`) : value;

  const { atRest } = options;
  const sealedName = (name: string) => (atRest ? `${name}.sealed` : name);
  if (atRest) {
    const removed = removeUnsealedFiles(dataDir);
    if (removed > 0) log.warn('removed files an earlier version kept unsealed', { files: removed });
  }
  const keyFile = jsonFile<{ key: string }>(join(dataDir, sealedName('token-key.json')), atRest);
  const storedKey = await keyFile.read();
  const key = storedKey ? Buffer.from(storedKey.key, 'base64') : randomBytes(32);
  if (!storedKey) await keyFile.write({ key: key.toString('base64') });

  const tokens = createServiceTokens({ lifetimeMs: timing.ms('tokenLifetimeMs'), key });
  const registry = await createProviderRegistry(
    jsonFile(join(dataDir, sealedName('providers.json')), atRest),
  );
  const store = await createSessionStore(join(dataDir, 'sessions'), atRest ? { cipher: atRest } : {});
  const faults = createFaultState();
  const webhooks = createWebhookSender({ timing, log });

  const app = Fastify({
    logger: false,
    // protocol: Limits (request size: the sandbox takes JSON bodies up to 1 MiB)
    bodyLimit: 1024 * 1024,
    // Fastify's own early errors (a malformed URL, a bad content type) get the service's body too.
    frameworkErrors: (error, _request, reply) => {
      void sendError(reply, 400, 'invalid_request', error.message);
    },
    // Bytes Node cannot parse as HTTP get a 400 in the service's shape, never a second response.
    clientErrorHandler: (error, socket) => {
      const code = (error as NodeJS.ErrnoException).code;
      // Stray bytes after a request that said Connection: close: its answer is still on the way,
      // and Node closes the socket after it. Ignore the bytes.
      if (code === 'HPE_CLOSED_CONNECTION') return;
      if (!socket.writable || code === 'ECONNRESET') {
        socket.destroy();
        return;
      }
      const body = JSON.stringify({ code: 400, message: 'invalid_request: malformed HTTP request' });
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
    serverFactory: (handler) => {
      hold.setRequestHandler(handler);
      return server;
    },
  });
  installErrorHandling(app, (error) => log.error('sandbox bug', { error: String(error) }));

  // Pongs are answered by the stream connection, in order with the messages before each ping.
  // Upgrades reach it through the hold (the plugin listens where `server` says).
  await app.register(fastifyWebsocket, {
    options: { maxPayload: 256 * 1024, autoPong: false, server: hold.upgrades as unknown as Server },
  });

  app.addHook('onRequest', async (request, reply) => {
    if (options.onlyOwnHost && request.headers.host !== new URL(url).host)
      return sendError(reply, 421, 'invalid_request', 'this service answers only 127.0.0.1 at its own port');
    if (request.url.startsWith('/__sandbox') || request.url.startsWith('/idp')) return;
    if (faults.restDelayMs > 0) await new Promise((r) => setTimeout(r, faults.restDelayMs));
    if (faults.failRestRemaining > 0 && !request.headers.upgrade) {
      faults.failRestRemaining -= 1;
      return sendError(reply, 500, 'internal_error', 'fault injected by the sandbox control API');
    }
  });

  await mountIdp(app, {
    issuer: idpIssuer,
    ...(options.idpClientSecret ? { clientSecret: options.idpClientSecret } : {}),
  });

  registerAuthRoutes(app, {
    partners,
    tokens,
    registry,
    verifyIdToken,
    resolveIdp,
  });
  const streams = registerStreamRoute(app, { store, tokens, partners, timing, ack: options.ack ?? true });
  const runner = createProcessingRunner({
    store,
    timing,
    asr: options.asr ?? 'auto',
    minSpeechMs: options.minSpeechMs ?? 1_000,
    recognize,
    generateNote,
    extractForms,
    templates: FORM_TEMPLATES,
    baseUrl: () => url,
    failProcessing: faults.failProcessing,
    alterNote: faults.alterNote,
    log,
    notify(session, payload) {
      const partner = partners.get(session.partnerId);
      if (partner?.notification_url && partner.webhook_secret) {
        webhooks.deliver({ url: partner.notification_url, secret: partner.webhook_secret }, payload);
      }
    },
  });

  await app.register(async (api) => {
    requireCaller(api, { tokens, partners });
    const today = () => new Date().toISOString().slice(0, 10);
    registerAmbientRoutes(api, { store, streams, startProcessing: runner.start, today });
    registerFormRoutes(api, { store, streams, startProcessing: runner.start, templates: FORM_TEMPLATES });
  });

  if (options.controlApi !== false) {
    registerControlRoutes(app, {
      store,
      streams,
      tokens,
      faults,
      notifications: () => webhooks.deliveries(),
      providers: () => registry.list(),
    });
  }

  await app.ready();
  hold.open();

  return {
    url,
    idpIssuer,
    partners,
    forgetSessions: (drop) => store.forget(drop),
    async close() {
      await webhooks.close();
      await app.close();
      if (server.listening) await new Promise((resolve) => server.close(resolve));
      // Closing streams saves their sessions; let those writes land before removing anything.
      await store.close({ discardLaterWrites: ownDataDir !== undefined });
      if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
