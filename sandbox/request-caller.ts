import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, type Caller } from './auth/authenticate';
import type { ServiceTokens } from './auth/service-tokens';
import { ServiceError } from './errors';
import type { Partner } from './partners';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

/**
 * Authenticates every REST call under `prefix` (everything after Login/Register). Credentials in
 * the query string are refused: the spec says they are never sent there.
 */
export function requireCaller(
  app: FastifyInstance,
  deps: { tokens: ServiceTokens; partners: ReadonlyMap<string, Partner> },
): void {
  app.addHook('preHandler', async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (query && ('sdp_service_token' in query || 'partner_token' in query)) {
      throw new ServiceError(
        400,
        'invalid_request',
        'credentials are never sent in query parameters; use headers',
      );
    }
    request.caller = await authenticate(request.headers, deps.tokens, deps.partners);
  });
}

export function callerOf(request: FastifyRequest): { partnerId: string; providerId: string } {
  if (!request.caller) throw new ServiceError(401, 'invalid_sdp_token', 'not authenticated');
  return { partnerId: request.caller.partner.partner_id, providerId: request.caller.providerId };
}
