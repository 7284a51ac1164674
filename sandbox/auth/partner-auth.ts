import { timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../errors';
import { IdTokenError } from '../idp/verify-id-token';
import type { Partner } from '../partners';

export type VerifyIdToken = (
  token: string,
  expected: { jwksUrl: string; issuer: string; audience: string },
) => Promise<{ sub: string; name?: string }>;

/**
 * Checks a Login/Register call's partner credentials and says which provider it is for.
 * Standard partners: the ID token's subject (provider_id in the body is optional and ignored).
 * Bearer and Single Auth Token partners: the shared partner token, and provider_id is required.
 */
export async function identifyProvider(
  partner: Partner | undefined,
  body: { partner_token: string; provider_id?: string | undefined },
  verifyIdToken: VerifyIdToken,
  resolveIdp: (value: string, what: 'issuer' | 'jwks') => string,
): Promise<{ providerId: string; name?: string }> {
  if (!partner) throw new ServiceError(401, 'invalid_sdp_token', 'unknown partner_id');
  if (partner.auth_model === 'standard') {
    try {
      // protocol: Authentication (standard: ID token verified against the partner's JWKS)
      const claims = await verifyIdToken(body.partner_token, {
        jwksUrl: resolveIdp(partner.jwks_url, 'jwks'),
        issuer: resolveIdp(partner.issuer, 'issuer'),
        audience: partner.audience,
      });
      return { providerId: claims.sub, ...(claims.name ? { name: claims.name } : {}) };
    } catch (error) {
      // The partner's key endpoint failing is not the token's fault: say so instead of a 401 that
      // would send the clinician to sign in again for nothing.
      if (error instanceof IdTokenError && error.problem === 'jwks_unavailable') {
        throw new ServiceError(500, 'internal_error', 'the partner identity provider could not be reached');
      }
      throw new ServiceError(401, 'invalid_sdp_token', `ID token rejected: ${(error as Error).message}`);
    }
  }
  if (!sameSecret(body.partner_token, partner.partner_token)) {
    throw new ServiceError(401, 'invalid_sdp_token', 'partner_token does not match this partner');
  }
  if (!body.provider_id) {
    throw new ServiceError(
      400,
      'invalid_request',
      `provider_id is required for ${partner.auth_model} partners`,
    );
  }
  return { providerId: body.provider_id };
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
