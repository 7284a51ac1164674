import type { FastifyInstance } from 'fastify';
import { loginRequestSchema, registerRequestSchema } from '../../src/shared/service';
import { ServiceError } from '../errors';
import type { Partner } from '../partners';
import { parseBody } from '../validation';
import { checkProviderHeader } from './authenticate';
import { identifyProvider, type VerifyIdToken } from './partner-auth';
import type { ProviderRegistry } from './provider-registry';
import type { ServiceTokens } from './service-tokens';

export interface AuthRouteDeps {
  partners: ReadonlyMap<string, Partner>;
  tokens: ServiceTokens;
  registry: ProviderRegistry;
  verifyIdToken: VerifyIdToken;
  resolveIdp: (value: string, what: 'issuer' | 'jwks') => string;
}

/** POST /api/v1/auth/login and /register (spec "Authentication endpoints"). */
export function registerAuthRoutes(app: FastifyInstance, deps: AuthRouteDeps): void {
  app.post('/api/v1/auth/login', async (request, reply) => {
    const body = parseBody(loginRequestSchema, request.body);
    const partner = deps.partners.get(body.partner_id);
    const { providerId } = await identifyProvider(partner, body, deps.verifyIdToken, deps.resolveIdp);
    // protocol: Authentication (Single Auth Token: sdp_provider_id on every REST call, Login too)
    checkProviderHeader(request.headers, partner, providerId, 'body');
    if (!deps.registry.isRegistered(body.partner_id, providerId)) {
      // protocol: Authentication (unregistered → 401 provider_not_registered)
      throw new ServiceError(
        401,
        'provider_not_registered',
        'call Register once for this provider, then Login again',
      );
    }
    const { token, expiresInSeconds } = await deps.tokens.issue({ partnerId: body.partner_id, providerId });
    // protocol: Authentication (200 {"service_token", "expires_in"})
    return reply.code(200).send({ service_token: token, expires_in: expiresInSeconds });
  });

  app.post('/api/v1/auth/register', async (request, reply) => {
    const body = parseBody(registerRequestSchema, request.body);
    const partner = deps.partners.get(body.partner_id);
    const { providerId } = await identifyProvider(partner, body, deps.verifyIdToken, deps.resolveIdp);
    // protocol: Authentication (Single Auth Token: sdp_provider_id on every REST call, Register too)
    checkProviderHeader(request.headers, partner, providerId, 'body');
    const outcome = await deps.registry.register(body.partner_id, {
      provider_id: providerId,
      provider_name: body.provider_name,
      provider_org_id: body.provider_org_id,
      // Spec: defaults to FAMILY_MEDICINE when omitted.
      provider_specialty: body.provider_specialty ?? 'FAMILY_MEDICINE',
    });
    if (outcome === 'already_linked') {
      return reply.code(409).send({
        code: 409,
        message: 'provider_already_registered: this provider is already registered with this partner',
      });
    }
    return reply.code(201).send({ status: outcome });
  });
}
