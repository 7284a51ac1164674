import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The per-launch secret of browser mode. The printed address carries it (`/?key=…`); the host
 * trades it, once, for an HttpOnly, SameSite=Strict cookie so it leaves the address bar and is
 * never readable by page scripts. The socket and every file need that cookie. A second trade is
 * refused: whoever read the address later (a shell history, a process list) gets nothing.
 */
export interface LaunchKey {
  /** The secret printed in the launch address. */
  readonly key: string;
  /** The cookie value the host hands out in exchange (derived, so the key itself is not stored). */
  readonly sessionToken: string;
  /** The session token for the key, the first time only; undefined for a wrong or spent key. */
  trade(candidate: unknown): string | undefined;
  matchesSessionToken(candidate: unknown): boolean;
}

export function createLaunchKey(key = randomBytes(32).toString('base64url')): LaunchKey {
  const sessionToken = createHmac('sha256', key).update('browser-mode-session').digest('base64url');
  let traded = false;
  return {
    key,
    sessionToken,
    trade(candidate) {
      if (traded || !sameSecret(candidate, key)) return undefined;
      traded = true;
      return sessionToken;
    },
    matchesSessionToken: (candidate) => sameSecret(candidate, sessionToken),
  };
}

function sameSecret(candidate: unknown, secret: string): boolean {
  if (typeof candidate !== 'string') return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
