import * as client from 'openid-client';
import type { Clock } from '../ports';
import type { ServiceCallError } from '../service/service-error';
import { authError } from './auth-errors';
import { startLoopbackRedirect } from './loopback-redirect';

/**
 * The OpenID Connect side of a standard partner (openid-client v6): discovery, the interactive
 * authorization code + PKCE (S256) sign-in in the system browser with a loopback redirect
 * (RFC 8252), the refresh token grant, and revocation at sign-out.
 */

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /**
   * Only for the app's own built-in demo, whose IdP client is confidential with a per-launch
   * secret (a real partner's desktop client is public, with PKCE, as RFC 8252 says).
   */
  clientSecret?: string;
  /** Path of the loopback redirect registered for the app at the IdP; default /callback. */
  redirectPath?: string;
  /** Default: openid profile offline_access. */
  scope?: string;
}

/** What the app keeps from a token response. */
export interface OidcTokens {
  idToken: string;
  /** Absent when the IdP granted no offline access. Rotated: store the new one after every refresh. */
  refreshToken?: string;
  /** ID token expiry, wall-clock ms. */
  idTokenExpiresAt: number;
  /** ID token lifetime as issued (exp - iat), ms. */
  idTokenLifetimeMs: number;
  sub: string;
  name?: string;
  /** When the person last signed in at the IdP (auth_time), ms on the IdP's clock, when it says. */
  authTime?: number;
  /** When the ID token was issued (iat), ms on the IdP's clock. */
  issuedAt: number;
}

export const DEFAULT_SCOPE = 'openid profile offline_access';
export const DEFAULT_REDIRECT_PATH = '/callback';
/** Seconds; openid-client's own default is 30. */
const IDP_TIMEOUT_S = 15;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export async function discover(settings: OidcSettings): Promise<client.Configuration> {
  const issuer = new URL(settings.issuer);
  // Plain http only for an IdP on this machine (the sandbox); openid-client refuses it otherwise.
  const insecure = issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
  if (issuer.protocol !== 'https:' && !insecure) {
    throw authError(
      'not_configured',
      'issuer must use https',
      'The sign-in (identity provider) address must start with https://. Ask your IT admin.',
    );
  }
  try {
    const clientAuth = settings.clientSecret ? client.ClientSecretPost(settings.clientSecret) : client.None();
    return await client.discovery(issuer, settings.clientId, undefined, clientAuth, {
      execute: insecure ? [client.allowInsecureRequests] : [],
      timeout: IDP_TIMEOUT_S,
    });
  } catch (error) {
    throw idpError(error);
  }
}

function toTokens(response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers): OidcTokens {
  const claims = response.claims();
  if (!response.id_token || !claims) throw authError('sign_in_failed', 'the IdP returned no ID token');
  return {
    idToken: response.id_token,
    ...(response.refresh_token ? { refreshToken: response.refresh_token } : {}),
    idTokenExpiresAt: claims.exp * 1000,
    idTokenLifetimeMs: (claims.exp - claims.iat) * 1000,
    sub: claims.sub,
    ...(typeof claims.name === 'string' ? { name: claims.name } : {}),
    ...(typeof claims.auth_time === 'number' ? { authTime: claims.auth_time * 1000 } : {}),
    issuedAt: claims.iat * 1000,
  };
}

/** An IdP failure as a sentence; the detail keeps only OAuth error codes and library messages. */
export function idpError(error: unknown): ServiceCallError {
  if (error instanceof client.ResponseBodyError) {
    // invalid_grant: the refresh token was used, revoked or expired. Other 4xx: same remedy.
    return error.status < 500
      ? authError('sign_in_needed', `idp refused: ${error.error}`)
      : authError('idp_unreachable', `idp ${error.status}: ${error.error}`);
  }
  if (error instanceof client.AuthorizationResponseError) {
    return authError('sign_in_failed', `authorization response: ${error.error}`);
  }
  if (error instanceof client.ClientError) {
    // openid-client's own checks (state, issuer, ID token claims): static messages, no token text.
    return authError('sign_in_failed', `${error.code ?? 'client error'}: ${error.message}`);
  }
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : error instanceof Error ? error.name : 'error';
  return authError('idp_unreachable', code);
}

export interface InteractiveSignIn {
  config: client.Configuration;
  settings: OidcSettings;
  /** Opens the authorization URL in the system browser (Electron shell.openExternal, or a new tab). */
  openExternal(url: string): Promise<void>;
  clock: Clock;
  timeoutMs: number;
  /** cancel(): aborts the wait; the listener closes at once. */
  signal: AbortSignal;
  /**
   * The person proves who they are now (unlocking a window, issue 29): the IdP asks for the
   * password again whatever session its browser holds (prompt=login, max_age=0), and the ID
   * token must say they signed in after this sign-in began.
   */
  fresh?: boolean;
}

/**
 * A fresh sign-in's auth_time is checked against the token's iat, both on the IdP's clock (so a
 * clock that runs fast or slow changes nothing): the person signed in at most as long before
 * the token was issued as this sign-in took, plus this margin for the IdP's own steps.
 */
const AUTH_TIME_MARGIN_MS = 30_000;

export async function signInInteractively(options: InteractiveSignIn): Promise<OidcTokens> {
  const { config, settings, signal } = options;
  if (signal.aborted) throw authError('sign_in_cancelled');
  const state = client.randomState();
  const codeVerifier = client.randomPKCECodeVerifier();
  const scope = settings.scope ?? DEFAULT_SCOPE;
  const startedAt = options.clock.now();
  const listener = await startLoopbackRedirect({
    path: settings.redirectPath ?? DEFAULT_REDIRECT_PATH,
    expectedState: state,
  });
  let stopTimer = () => {};
  let onAbort = () => {};
  try {
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: listener.redirectUri,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      ...promptFor(scope, options.fresh === true),
    });
    const interrupted = new Promise<never>((_resolve, reject) => {
      stopTimer = options.clock.after(options.timeoutMs, () => reject(authError('sign_in_timeout')));
      onAbort = () => reject(authError('sign_in_cancelled'));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    // Raced below; until then (the browser opening) a cancel must not be an unhandled rejection.
    interrupted.catch(() => undefined);
    try {
      await options.openExternal(authorizationUrl.href);
    } catch (error) {
      throw authError('browser_unavailable', error instanceof Error ? error.name : '');
    }
    const callbackUrl = await Promise.race([listener.response, interrupted]);
    let tokens: OidcTokens;
    try {
      tokens = toTokens(
        await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: codeVerifier,
          expectedState: state,
          idTokenExpected: true,
        }),
      );
    } catch (error) {
      const problem = idpError(error);
      // The IdP refusing the code is a failed sign-in, not an ended one.
      throw problem.id === 'sign_in_needed' ? authError('sign_in_failed', problem.serviceMessage) : problem;
    }
    // An IdP that ignored max_age (a session from this morning) proves nothing about who is here.
    const took = options.clock.now() - startedAt;
    if (
      options.fresh &&
      (tokens.authTime === undefined || tokens.issuedAt - tokens.authTime > took + AUTH_TIME_MARGIN_MS)
    ) {
      throw authError(
        'sign_in_failed',
        'the ID token has no recent auth_time',
        'The identity provider did not ask for your password again, so this proves nothing. Ask your IT admin.',
      );
    }
    return tokens;
  } finally {
    stopTimer();
    signal.removeEventListener('abort', onAbort);
    await listener.close();
  }
}

/**
 * OIDC Core 11: offline_access is ignored unless prompt includes consent (oidc-provider, the
 * sandbox's IdP, enforces it), and without it no refresh token is issued. A fresh sign-in adds
 * login, and max_age=0 for IdPs that honour that rather than prompt.
 */
function promptFor(scope: string, fresh: boolean): Record<string, string> {
  const prompts = [
    ...(fresh ? ['login'] : []),
    ...(scope.split(' ').includes('offline_access') ? ['consent'] : []),
  ];
  return {
    ...(prompts.length > 0 ? { prompt: prompts.join(' ') } : {}),
    ...(fresh ? { max_age: '0' } : {}),
  };
}

export async function refreshTokens(config: client.Configuration, refreshToken: string): Promise<OidcTokens> {
  try {
    return toTokens(await client.refreshTokenGrant(config, refreshToken));
  } catch (error) {
    throw idpError(error);
  }
}

/** Best effort at sign-out: the IdP forgets the refresh token (and its grant). */
export async function revokeRefreshToken(config: client.Configuration, refreshToken: string): Promise<void> {
  if (!config.serverMetadata().revocation_endpoint) return;
  await client.tokenRevocation(config, refreshToken, { token_type_hint: 'refresh_token' });
}
