import type * as client from 'openid-client';
import type { Clock, Logger } from '../ports';
import { OIDC_SUBJECT_NAME, SECRET_NAMES, type SecretBox } from '../secrets/secret-box';
import { authError, isAuthProblem } from './auth-errors';
import {
  discover,
  refreshTokens,
  revokeRefreshToken,
  signInInteractively,
  type OidcSettings,
  type OidcTokens,
} from './oidc-client';

/**
 * Where Login's partner_token comes from (spec "Authentication"): for Bearer and Single Auth Token
 * partners the shared token the IT admin hands out; for standard partners the user's OpenID Connect
 * ID token, renewed silently with the refresh token and interactively only when asked to.
 */
export interface PartnerTokenSource {
  /**
   * interactive: may open the browser (only on the user's own "Sign in"). fresh: the service
   * refused the last token, so get a new one even if it looks valid. freshLogin: the person at
   * the keyboard signs in now, password and all (the first Sign in after a Sign out: an IdP
   * session the browser still holds may be the last clinician's).
   */
  get(options: { interactive: boolean; fresh?: boolean; freshLogin?: boolean }): Promise<string>;
  /** Who the token says the user is (standard partners), for the status line. */
  identity(): { sub?: string; name?: string };
  /** Stops a sign-in waiting for the browser. Returns whether one was waiting. */
  cancel(): boolean;
  /** Sign-out: forget (and revoke) what lets the app sign in again without the user. */
  forget(): Promise<void>;
  /**
   * Standard partners: the person at the keyboard signs in again at the IdP, password and all
   * (unlocking a window, issue 29), and must be `expectedSub`. Anyone else is refused and nothing
   * of their sign-in is kept. Without `expectedSub` (a lock whose clinician is not known) whoever
   * proves it at the IdP. Shared tokens are the organisation's and prove nobody: refused.
   */
  reauthenticate(expectedSub: string | undefined): Promise<void>;
}

export function sharedPartnerToken(secrets: SecretBox): PartnerTokenSource {
  return {
    async get() {
      const token = (await secrets.get(SECRET_NAMES.partnerToken))?.trim();
      if (!token) throw authError('partner_token_missing');
      return token;
    },
    identity: () => ({}),
    cancel: () => false,
    // The partner token is the organisation's, configured by the admin: signing out keeps it.
    async forget() {},
    async reauthenticate() {
      throw authError('not_configured', 'a shared partner token proves nobody');
    },
  };
}

export interface OidcPartnerTokenDeps {
  settings: OidcSettings;
  secrets: SecretBox;
  clock: Clock;
  log: Logger;
  openExternal: (url: string) => Promise<void>;
  signInTimeoutMs: number;
  /** Told when a sign-in starts and stops waiting for the browser. */
  onWaiting(waiting: boolean): void;
}

/** Renew the ID token this long before it ends (at most a tenth of its lifetime). */
const ID_TOKEN_MARGIN_MS = 60_000;

export function oidcPartnerToken(deps: OidcPartnerTokenDeps): PartnerTokenSource {
  const { secrets, log } = deps;
  let config: Promise<client.Configuration> | undefined;
  let current: OidcTokens | undefined;
  let refreshing: Promise<string> | undefined;
  let interactive: { promise: Promise<string>; abort: AbortController; fresh: boolean } | undefined;

  const configuration = (): Promise<client.Configuration> => {
    config ??= discover(deps.settings).catch((error: unknown) => {
      config = undefined; // the next try discovers again
      throw error;
    });
    return config;
  };

  /** The refresh token gone, and whom it signed in as with it (the start's lock reads both). */
  const forgetKeptSignIn = async () => {
    await secrets.delete(SECRET_NAMES.oidcRefreshToken);
    await secrets.delete(OIDC_SUBJECT_NAME);
  };

  const usable = (tokens: OidcTokens | undefined): tokens is OidcTokens =>
    tokens !== undefined &&
    deps.clock.now() < tokens.idTokenExpiresAt - Math.min(ID_TOKEN_MARGIN_MS, tokens.idTokenLifetimeMs / 10);

  const keep = async (tokens: OidcTokens): Promise<string> => {
    current = tokens;
    if (tokens.refreshToken) {
      // The IdP rotates refresh tokens: the old one is refused from now on, so the new one is
      // saved before anything else can fail.
      await secrets.set(SECRET_NAMES.oidcRefreshToken, tokens.refreshToken);
      if (tokens.sub) await secrets.set(OIDC_SUBJECT_NAME, tokens.sub);
    } else {
      await forgetKeptSignIn();
      log.warn(
        'auth: the identity provider issued no refresh token; sign-in is needed when the ID token ends',
        {},
      );
    }
    return tokens.idToken;
  };

  const refresh = async (): Promise<string> => {
    const refreshToken = await secrets.get(SECRET_NAMES.oidcRefreshToken);
    if (!refreshToken) {
      throw authError(
        'sign_in_needed',
        'no refresh token stored',
        'Sign in with your organization account to continue.',
      );
    }
    try {
      const tokens = await refreshTokens(await configuration(), refreshToken);
      log.info('auth: renewed the ID token with the refresh token', {});
      return await keep(tokens);
    } catch (error) {
      // Refused (used, revoked, expired): useless from now on. Unreachable: kept for the next try.
      if (isAuthProblem(error, 'sign_in_needed')) await forgetKeptSignIn();
      throw error;
    }
  };

  /** fresh: prompt=login; expectedSub: and it must be this person. */
  const signIn = async (fresh?: { expectedSub?: string }): Promise<string> => {
    // A fresh sign-in never joins one that is not (its password was never asked): that one ends.
    while (interactive && fresh && !interactive.fresh) {
      const pending = interactive;
      pending.abort.abort();
      await pending.promise.catch(() => undefined);
    }
    if (interactive) return interactive.promise;
    const abort = new AbortController();
    const promise = (async () => {
      deps.onWaiting(true);
      try {
        const tokens = await signInInteractively({
          config: await configuration(),
          settings: deps.settings,
          openExternal: deps.openExternal,
          clock: deps.clock,
          timeoutMs: deps.signInTimeoutMs,
          signal: abort.signal,
          fresh: fresh !== undefined,
        });
        if (fresh?.expectedSub !== undefined && tokens.sub !== fresh.expectedSub) {
          log.warn('auth: another person signed in at the identity provider to unlock', {});
          // Nothing of theirs is kept: their refresh token is revoked, best effort.
          if (tokens.refreshToken)
            void configuration()
              .then((config) => revokeRefreshToken(config, tokens.refreshToken!))
              .catch(() => undefined);
          throw authError(
            'sign_in_failed',
            'another subject',
            `You signed in as ${tokens.sub}; this window is ${fresh.expectedSub}'s. It stays locked: ${fresh.expectedSub} unlocks it, or signs out.`,
          );
        }
        log.info('auth: signed in at the identity provider', { fresh: fresh !== undefined });
        return await keep(tokens);
      } finally {
        interactive = undefined;
        deps.onWaiting(false);
      }
    })();
    interactive = { promise, abort, fresh: fresh !== undefined };
    return promise;
  };

  return {
    async get({ interactive: mayAsk, fresh, freshLogin }) {
      if (mayAsk && freshLogin) return signIn({});
      if (!fresh && usable(current)) return current.idToken;
      try {
        // One refresh at a time: two with the same (rotating) refresh token would burn it.
        refreshing ??= refresh().finally(() => (refreshing = undefined));
        return await refreshing;
      } catch (error) {
        if (!mayAsk || !isAuthProblem(error, 'sign_in_needed')) throw error;
      }
      return signIn();
    },
    async reauthenticate(expectedSub) {
      await signIn(expectedSub === undefined ? {} : { expectedSub });
    },
    identity: () => ({
      ...(current?.sub ? { sub: current.sub } : {}),
      ...(current?.name ? { name: current.name } : {}),
    }),
    cancel() {
      if (!interactive) return false;
      interactive.abort.abort();
      return true;
    },
    async forget() {
      interactive?.abort.abort();
      current = undefined;
      const refreshToken = await secrets.get(SECRET_NAMES.oidcRefreshToken);
      await forgetKeptSignIn();
      if (!refreshToken) return;
      try {
        await revokeRefreshToken(await configuration(), refreshToken);
      } catch {
        // Deleted here either way; the IdP expires it on its own schedule.
        log.warn('auth: could not revoke the refresh token at the identity provider', {});
      }
    },
  };
}
