import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The per-launch secret of browser mode. The printed address carries it once (`/?key=…`); the
 * host trades it for an HttpOnly, SameSite=Strict cookie so it leaves the address bar and is
 * never readable by page scripts. The socket and every file need that cookie.
 */
export interface LaunchKey {
  /** The secret printed in the launch address. */
  readonly key: string;
  /** The cookie value the host hands out in exchange (derived, so the key itself is not stored). */
  readonly sessionToken: string;
  matchesKey(candidate: unknown): boolean;
  matchesSessionToken(candidate: unknown): boolean;
}

export function createLaunchKey(key = randomBytes(32).toString('base64url')): LaunchKey {
  const sessionToken = createHmac('sha256', key).update('browser-mode-session').digest('base64url');
  return {
    key,
    sessionToken,
    matchesKey: (candidate) => sameSecret(candidate, key),
    matchesSessionToken: (candidate) => sameSecret(candidate, sessionToken),
  };
}

function sameSecret(candidate: unknown, secret: string): boolean {
  if (typeof candidate !== 'string') return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
