import * as client from 'openid-client';
import { CookieJar } from './cookie-jar';
import { IDP_SCOPES } from './constants';
import { startLoopbackReceiver } from './loopback-receiver';

/**
 * Signs in to the sandbox IdP the way the desktop app does (openid-client discovery, authorization
 * code + PKCE S256, RFC 8252 loopback redirect), with fetch playing the system browser: it follows
 * redirects, carries cookies, fills and posts the dev login form. For tests of anything that needs
 * a real partner_token.
 */

export interface HeadlessSignInOptions {
  /** The IdP's issuer, e.g. http://127.0.0.1:PORT/idp. */
  issuer: string;
  clientId: string;
  /** For a confidential client (the app's built-in demo). */
  clientSecret?: string;
  /** Typed into the login form; becomes the ID token's sub. */
  username: string;
  /** Typed into the display name field; becomes the ID token's name. */
  name?: string;
  /** Port of the loopback redirect listener; default: one the OS picks. */
  redirectPort?: number;
  /** Default: openid profile offline_access. */
  scope?: string;
}

export interface IdpTokens {
  idToken: string;
  /** Present when offline_access was granted. Rotated: each refresh returns a new one. */
  refreshToken?: string;
  accessToken: string;
  /** Seconds until the access token expires. */
  expiresIn?: number;
  sub: string;
  name?: string;
}

export interface HeadlessSignInResult extends IdpTokens {
  /** The redirect_uri used, http://127.0.0.1:<port>/callback. */
  redirectUri: string;
}

/** Redirects and pages between the authorization request and the callback; a loop ends here. */
const MAX_BROWSER_STEPS = 12;

/** openid-client refuses http endpoints unless told; the sandbox IdP is http on loopback. */
export function discoverIdp(
  issuer: string,
  clientId: string,
  clientSecret?: string,
): Promise<client.Configuration> {
  const execute = new URL(issuer).protocol === 'http:' ? [client.allowInsecureRequests] : [];
  const auth = clientSecret ? client.ClientSecretPost(clientSecret) : client.None();
  return client.discovery(new URL(issuer), clientId, undefined, auth, { execute });
}

function toIdpTokens(tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers): IdpTokens {
  const claims = tokens.claims();
  if (!tokens.id_token || !claims) throw new Error('The IdP returned no ID token');
  const expiresIn = tokens.expiresIn();
  return {
    idToken: tokens.id_token,
    accessToken: tokens.access_token,
    sub: claims.sub,
    ...(tokens.refresh_token ? { refreshToken: tokens.refresh_token } : {}),
    ...(expiresIn !== undefined ? { expiresIn } : {}),
    ...(typeof claims.name === 'string' ? { name: claims.name } : {}),
  };
}

/** The visible text of an error page, for an error message that says why the walk stopped. */
function pageText(html: string): string {
  const alert = /role="alert"[^>]*>([\s\S]*?)</i.exec(html)?.[1];
  const text = (alert ?? html.replace(/<style[\s\S]*?<\/style>/gi, '')).replace(/<[^>]+>/g, ' ');
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

/** The login form's absolute action URL, when the page is the dev login form. */
function loginFormAction(html: string, pageUrl: URL): URL | undefined {
  if (!/<input[^>]*\bname="username"/i.test(html)) return undefined;
  const action = /<form[^>]*\baction="([^"]*)"/i.exec(html)?.[1];
  return action === undefined ? undefined : new URL(action.replace(/&amp;/g, '&'), pageUrl);
}

/**
 * Plays the browser from the authorization URL until it lands on the loopback redirect (where the
 * receiver records the authorization response). `visited` collects every URL on the way (tests
 * check that authorization codes only go where they should).
 */
export async function walkBrowser(
  start: URL,
  redirectUri: URL,
  login: { username: string; name?: string },
  visited: string[] = [],
): Promise<void> {
  const jar = new CookieJar();
  let url = start;
  let init: RequestInit = { method: 'GET' };
  for (let step = 0; step < MAX_BROWSER_STEPS; step += 1) {
    visited.push(url.href);
    if (url.origin === redirectUri.origin && url.pathname === redirectUri.pathname) {
      // The browser lands on the app's loopback listener, which records the response.
      const landing = await fetch(url);
      await landing.arrayBuffer();
      return;
    }
    const cookie = jar.header(url);
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    jar.store(url, response);

    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.arrayBuffer();
      url = new URL(location, url);
      init = { method: 'GET' };
      continue;
    }
    const html = await response.text();
    const action = response.ok ? loginFormAction(html, url) : undefined;
    if (!action) {
      throw new Error(`Sign-in stopped at ${url.pathname}: HTTP ${response.status}: ${pageText(html)}`);
    }
    url = action;
    init = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: login.username, name: login.name ?? '' }).toString(),
    };
  }
  throw new Error(`Sign-in did not reach ${redirectUri.href} within ${MAX_BROWSER_STEPS} steps`);
}

export async function signInHeadless(options: HeadlessSignInOptions): Promise<HeadlessSignInResult> {
  const config = await discoverIdp(options.issuer, options.clientId, options.clientSecret);
  const receiver = await startLoopbackReceiver(options.redirectPort);
  try {
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const scope = options.scope ?? IDP_SCOPES;
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: receiver.redirectUri,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      // OIDC Core 11: offline_access is ignored unless prompt includes consent (oidc-provider
      // enforces this); the sandbox grants consent without asking, so it costs one redirect.
      ...(scope.split(' ').includes('offline_access') ? { prompt: 'consent' } : {}),
    });
    const login = { username: options.username, ...(options.name ? { name: options.name } : {}) };
    await walkBrowser(authorizationUrl, new URL(receiver.redirectUri), login);
    const callbackUrl = await receiver.response;
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
      idTokenExpected: true,
    });
    return { ...toIdpTokens(tokens), redirectUri: receiver.redirectUri };
  } finally {
    await receiver.close();
  }
}

/** Renews sign-in with a refresh token, as the desktop app does; store the returned refresh token. */
export async function refreshIdToken(options: {
  issuer: string;
  clientId: string;
  refreshToken: string;
}): Promise<IdpTokens> {
  const config = await discoverIdp(options.issuer, options.clientId);
  return toIdpTokens(await client.refreshTokenGrant(config, options.refreshToken));
}
