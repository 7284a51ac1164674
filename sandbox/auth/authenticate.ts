import { ServiceError } from '../errors';
import type { Partner } from '../partners';
import { TokenError, type ServiceTokens } from './service-tokens';

/** The authenticated caller of a REST call or stream. */
export interface Caller {
  partner: Partner;
  providerId: string;
  tokenIssuedAt: number;
  tokenExpiresAt: number;
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The checks every call after Login makes, in order: service token present and valid; for
 * Single Auth Token partners, sdp_provider_id present and equal to the token's provider.
 */
export async function authenticate(
  headers: Headers,
  tokens: ServiceTokens,
  partners: ReadonlyMap<string, Partner>,
): Promise<Caller> {
  // protocol: Authentication (header sdp_service_token on every later call)
  const token = header(headers, 'sdp_service_token');
  if (!token) throw new ServiceError(401, 'invalid_sdp_token', 'missing sdp_service_token header');
  let verified;
  try {
    verified = await tokens.verify(token);
  } catch (error) {
    throw new ServiceError(
      401,
      'invalid_sdp_token',
      error instanceof TokenError ? error.message : 'invalid token',
    );
  }
  const partner = partners.get(verified.partnerId);
  if (!partner)
    throw new ServiceError(401, 'invalid_sdp_token', 'the partner of this token is not configured');

  checkProviderHeader(headers, partner, verified.providerId);
  return {
    partner,
    providerId: verified.providerId,
    tokenIssuedAt: verified.issuedAt,
    tokenExpiresAt: verified.expiresAt,
  };
}

/**
 * Single Auth Token partners name their provider in the header sdp_provider_id on every REST call
 * (Login and Register included) and on the upgrade: missing → 400 missing_sdp_provider_id_header,
 * another provider than the token's (or, on Login and Register, the body's) → 400
 * invalid_sdp_provider_id. Other partners need no such header.
 */
export function checkProviderHeader(
  headers: Headers,
  partner: Partner | undefined,
  providerId: string,
  from: 'token' | 'body' = 'token',
): void {
  if (partner?.auth_model !== 'single_auth_token') return;
  // protocol: Authentication (Single Auth Token: sdp_provider_id on every REST call and the upgrade)
  const providerHeader = header(headers, 'sdp_provider_id');
  if (!providerHeader) {
    throw new ServiceError(
      400,
      'missing_sdp_provider_id_header',
      'sdp_provider_id header is required for this partner',
    );
  }
  if (providerHeader !== providerId) {
    const whose = from === 'token' ? 'the token’s provider' : 'provider_id in the body';
    throw new ServiceError(400, 'invalid_sdp_provider_id', `sdp_provider_id does not match ${whose}`);
  }
}
