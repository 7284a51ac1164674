import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';

/**
 * Verifies a standard partner's partner_token: an OpenID Connect ID token checked against the
 * partner's JWKS URL, issuer and audience (docs/protocol.md "Authentication").
 */

export interface ExpectedIdToken {
  jwksUrl: string;
  issuer: string;
  audience: string;
}

export interface VerifiedIdToken {
  sub: string;
  name?: string;
}

export type IdTokenProblem =
  | 'expired'
  | 'not_yet_valid'
  | 'wrong_audience'
  | 'wrong_issuer'
  | 'missing_claim'
  | 'bad_signature'
  | 'unknown_signing_key'
  | 'disallowed_algorithm'
  | 'malformed'
  | 'jwks_unavailable';

/**
 * The message is a short reason meant for `invalid_sdp_token: <reason>`. `jwks_unavailable` is the
 * one problem that is not the token's fault (the partner's key endpoint failed).
 */
export class IdTokenError extends Error {
  constructor(
    readonly problem: IdTokenProblem,
    reason: string,
  ) {
    super(reason);
    this.name = 'IdTokenError';
  }
}

/** Asymmetric algorithms only: a JWKS publishes public keys, never shared secrets. */
const ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** Room for clocks that drift between the partner's IdP and the service. */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * One key set per URL for the life of the process: jose caches the fetched keys and refetches
 * (rate-limited) when a token names a kid it has not seen, which covers partner key rotation.
 */
const keySets = new Map<string, JWTVerifyGetKey>();

function keySetFor(jwksUrl: string): JWTVerifyGetKey {
  let keySet = keySets.get(jwksUrl);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(jwksUrl));
    keySets.set(jwksUrl, keySet);
  }
  return keySet;
}

function claimProblem(error: errors.JWTClaimValidationFailed): IdTokenError {
  if (error.reason === 'missing') return new IdTokenError('missing_claim', `missing ${error.claim} claim`);
  switch (error.claim) {
    case 'aud':
      return new IdTokenError('wrong_audience', 'wrong audience');
    case 'iss':
      return new IdTokenError('wrong_issuer', 'wrong issuer');
    case 'nbf':
      return new IdTokenError('not_yet_valid', 'not yet valid');
    default:
      return new IdTokenError('malformed', `invalid ${error.claim} claim`);
  }
}

/** jose's error, as the short reason the service puts in its 401. */
function toIdTokenError(error: unknown): IdTokenError {
  if (error instanceof errors.JWTExpired) return new IdTokenError('expired', 'expired');
  if (error instanceof errors.JWTClaimValidationFailed) return claimProblem(error);
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new IdTokenError('bad_signature', 'bad signature');
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return new IdTokenError('unknown_signing_key', 'unknown signing key');
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return new IdTokenError('disallowed_algorithm', 'signing algorithm not allowed');
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return new IdTokenError('malformed', 'malformed token');
  }
  // Fetch failures, non-200 answers, JWKS_INVALID, JWKS_TIMEOUT: the key endpoint, not the token.
  return new IdTokenError('jwks_unavailable', 'partner JWKS unavailable');
}

/** Checks signature, issuer, audience and expiry; throws IdTokenError with a short reason. */
export async function verifyIdToken(token: string, expected: ExpectedIdToken): Promise<VerifiedIdToken> {
  try {
    const { payload } = await jwtVerify(token, keySetFor(expected.jwksUrl), {
      issuer: expected.issuer,
      audience: expected.audience,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      // OIDC Core 2: an ID token always carries these.
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const sub = payload.sub;
    if (typeof sub !== 'string' || !sub) throw new IdTokenError('missing_claim', 'missing sub claim');
    return typeof payload.name === 'string' ? { sub, name: payload.name } : { sub };
  } catch (error) {
    throw error instanceof IdTokenError ? error : toIdTokenError(error);
  }
}
