import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Provider } from 'oidc-provider';
import { DevAccounts } from './accounts';
import { builtinIdp, DEFAULT_CLIENT_ID, IDP_PATH } from './constants';
import { interactionRoutes } from './interactions';
import { createProvider, generateIdpSecrets } from './provider';

/**
 * Mounts the sandbox's OpenID Connect provider at /idp of the sandbox's Fastify server.
 *
 * oidc-provider is a Koa application that reads request bodies itself, so everything under /idp
 * except the login pages is handed to its Node callback untouched: the route lives in its own
 * encapsulated context whose only content-type parser leaves the body stream unread, and the reply
 * is hijacked so Fastify never writes to it. Nothing here changes parsers, hooks or error handlers
 * of the rest of the app.
 */

export interface MountIdpOptions {
  /**
   * `${sandboxUrl}/idp`. A function is called once, at the first request to the IdP or the first
   * provider() call, for servers that learn their port only when listening (port 0).
   */
  issuer: string | (() => string);
  /** The desktop app's client id, also the ID token audience. Default ambient-scribe-desktop. */
  clientId?: string;
  /** ID token lifetime; oidc-provider's default is 3600 s. */
  idTokenTtlSeconds?: number;
  /** A confidential client's secret (provider.ts); default: a public client. */
  clientSecret?: string;
}

export interface MountedIdp {
  clientId: string;
  issuer(): string;
  /** What a standard partner's jwks_url is for this IdP (also jwks_uri in discovery). */
  jwksUrl(): string;
  /** The oidc-provider instance (created on first use when the issuer is a function). */
  provider(): Provider;
}

/** Every method a provider endpoint may be called with (HEAD comes with GET in Fastify). */
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'] as const;

type MountedRequest = IncomingMessage & { originalUrl?: string };

async function providerPassthrough(app: FastifyInstance, options: { provider: () => Provider }) {
  let callback: ReturnType<Provider['callback']> | undefined;

  // oidc-provider parses (and size-limits) bodies itself and needs the raw stream: this context
  // accepts any content type and leaves the body unread.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.route({
    method: [...METHODS],
    url: '/*',
    handler: async (request, reply) => {
      // oidc-provider's body reader throws on charsets it cannot decode, after the reply is
      // hijacked; refuse them here, where Fastify can still answer.
      const charset = /charset=([^;]+)/i
        .exec(request.headers['content-type'] ?? '')?.[1]
        ?.trim()
        .toLowerCase();
      if (charset && charset !== 'utf-8' && charset !== 'utf8') {
        return reply.code(415).send({ error: 'invalid_request', error_description: 'bodies must be UTF-8' });
      }
      callback ??= options.provider().callback();
      reply.hijack();
      // Connect-style mounting, as oidc-provider's docs do for hapi and nest: it sees paths
      // relative to the issuer, and derives the mount path back from originalUrl when it builds
      // absolute URLs (discovery, redirects to the interaction and resume endpoints).
      const req: MountedRequest = request.raw;
      const url = req.url ?? '/';
      req.originalUrl = url;
      req.url = url.slice(IDP_PATH.length) || '/';
      try {
        await callback(req, reply.raw);
      } catch {
        // Never leave a client without an answer (no 5xx for what a client sends).
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(400, { 'content-type': 'application/json' });
          reply.raw.end(
            JSON.stringify({ error: 'invalid_request', error_description: 'the request could not be read' }),
          );
        } else reply.raw.destroy();
      }
    },
  });
}

export async function mountIdp(app: FastifyInstance, options: MountIdpOptions): Promise<MountedIdp> {
  const clientId = options.clientId ?? DEFAULT_CLIENT_ID;
  const accounts = new DevAccounts();
  const secrets = await generateIdpSecrets();

  let issuer: string | undefined;
  const resolveIssuer = (): string =>
    (issuer ??= typeof options.issuer === 'string' ? options.issuer : options.issuer());

  let instance: Provider | undefined;
  const provider = (): Provider => {
    if (!instance) {
      instance = createProvider(resolveIssuer(), {
        clientId,
        accounts,
        secrets,
        ...(options.idTokenTtlSeconds ? { idTokenTtlSeconds: options.idTokenTtlSeconds } : {}),
        ...(options.clientSecret ? { clientSecret: options.clientSecret } : {}),
      });
      // oidc-provider catches its own errors; unexpected ones go to the sandbox's log.
      instance.on('server_error', (_ctx, err) => app.log.error({ err }, 'idp server error'));
    }
    return instance;
  };
  // A fixed issuer is checked now, so a wrong one fails at start rather than at the first sign-in.
  if (typeof options.issuer === 'string') provider();

  await app.register(
    async (idp) => {
      await idp.register(providerPassthrough, { provider });
      await idp.register(interactionRoutes, { provider, accounts, clientId });
    },
    { prefix: IDP_PATH },
  );

  return {
    clientId,
    issuer: resolveIssuer,
    jwksUrl: () => builtinIdp(resolveIssuer()).jwksUrl,
    provider,
  };
}
