import { randomBytes } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

/** Who a service token speaks for. */
export interface TokenSubject {
  partnerId: string;
  providerId: string;
}

export interface VerifiedToken extends TokenSubject {
  /** Wall-clock ms when the token was issued. */
  issuedAt: number;
  /** Wall-clock ms when the token stops being valid (an open stream is closed with 4001 then). */
  expiresAt: number;
}

export interface ServiceTokens {
  issue(subject: TokenSubject): Promise<{ token: string; expiresInSeconds: number }>;
  /** Throws TokenError with a short reason ("token expired", "bad signature", "malformed token"). */
  verify(token: string): Promise<VerifiedToken>;
  /**
   * Every token issued before `at` (wall-clock ms) counts as expired from now on (fault injection:
   * the control API's expire_tokens). Tokens issued at or after `at` are unaffected.
   */
  expireIssuedBefore(at: number): void;
}

export class TokenError extends Error {}

const ISSUER = 'ambient-scribe-sandbox';

/**
 * Service tokens are signed JWTs (HS256). They expire after the token lifetime (1 hour, scaled by
 * --time-scale); a signed private claim keeps millisecond precision because scaled lifetimes can be
 * shorter than a second.
 */
export function createServiceTokens(options: {
  lifetimeMs: number;
  key?: Uint8Array;
  now?: () => number;
}): ServiceTokens {
  const key = options.key ?? randomBytes(32);
  const now = options.now ?? Date.now;
  let expiredBefore = 0;
  return {
    async issue(subject) {
      // protocol: Authentication (token lifetime 1 hour)
      const issuedAt = now();
      const expiresAt = issuedAt + options.lifetimeMs;
      const token = await new SignJWT({
        pid: subject.partnerId,
        prv: subject.providerId,
        iat_ms: issuedAt,
        exp_ms: expiresAt,
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setIssuedAt(Math.floor(issuedAt / 1000))
        .setExpirationTime(Math.ceil(expiresAt / 1000))
        .setJti(randomBytes(8).toString('hex'))
        .sign(key);
      return { token, expiresInSeconds: Math.round(options.lifetimeMs / 1000) };
    },
    async verify(token) {
      let payload;
      try {
        ({ payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          algorithms: ['HS256'],
          currentDate: new Date(now()),
        }));
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw new TokenError('token expired');
        if (error instanceof joseErrors.JWSSignatureVerificationFailed) throw new TokenError('bad signature');
        throw new TokenError('malformed token');
      }
      const { pid, prv, exp_ms: expiresAt, iat_ms: issuedAtMs, iat } = payload;
      if (typeof pid !== 'string' || typeof prv !== 'string' || typeof expiresAt !== 'number') {
        throw new TokenError('malformed token');
      }
      if (expiresAt <= now()) throw new TokenError('token expired');
      // Tokens signed before iat_ms existed (a kept --data directory) carry whole seconds only.
      const issuedAt = typeof issuedAtMs === 'number' ? issuedAtMs : (iat ?? 0) * 1000;
      if (issuedAt < expiredBefore) throw new TokenError('token expired');
      return { partnerId: pid, providerId: prv, issuedAt, expiresAt };
    },
    expireIssuedBefore(at) {
      expiredBefore = Math.max(expiredBefore, at);
    },
  };
}
