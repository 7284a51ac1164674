import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Browser mode's per-launch capability (the protocol: src/shared/browser-mode-handshake.ts). The
 * launch key opens the first socket; each socket that opens is given a fresh page token for the
 * next one, and once the page confirms it kept that token, what it presented is spent. So at any
 * moment one credential opens the contract: the one the app's own tab holds. A replay of anything
 * it presented before, the launch key included, opens nothing.
 *
 * Between the offer and the confirmation (milliseconds) the presented credential and the offered
 * token both still open: a page reloaded in that window comes back with whichever it kept.
 */
export interface PageCapability {
  /** The secret printed in the launch address (its fragment). */
  readonly launchKey: string;
  /** For the credential a page presents: a token offer, or undefined for a wrong or spent one. */
  present(credential: unknown): PageTokenOffer | undefined;
}

export interface PageTokenOffer {
  /** The page's credential for its next connection. */
  readonly pageToken: string;
  /** The page kept `pageToken`: it becomes the only credential. False if a later offer replaced it. */
  confirm(echo: unknown): boolean;
}

export function createPageCapability(
  options: {
    launchKey?: string;
    /** Told each secret as it is made, so the log scrubber knows it by value. */
    remember?: (secret: string) => void;
    /** The launch key opens nothing any more (a page kept its first token). */
    onLaunchKeySpent?: () => void;
  } = {},
): PageCapability {
  const fresh = () => randomBytes(32).toString('base64url');
  const launchKey = options.launchKey ?? fresh();
  options.remember?.(launchKey);
  /** The credential that opens the socket: the launch key until the first confirmation. */
  let accepted = launchKey;
  /** A token offered and not yet confirmed. */
  let offered: string | undefined;
  const accept = (token: string) => {
    if (accepted === launchKey) options.onLaunchKeySpent?.();
    accepted = token;
  };

  return {
    launchKey,
    present(credential) {
      if (offered !== undefined && sameSecret(credential, offered)) {
        // The page kept the last offer but its confirmation never arrived (it reloaded first).
        accept(offered);
      } else if (!sameSecret(credential, accepted)) {
        return undefined;
      }
      const pageToken = fresh();
      options.remember?.(pageToken);
      offered = pageToken;
      return {
        pageToken,
        confirm(echo) {
          if (offered !== pageToken || !sameSecret(echo, pageToken)) return false;
          accept(pageToken);
          offered = undefined;
          return true;
        },
      };
    },
  };
}

function sameSecret(candidate: unknown, secret: string): boolean {
  if (typeof candidate !== 'string') return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
