import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { Provider, type Configuration, type JWK } from 'oidc-provider';
import type { DevAccounts } from './accounts';
import { IDP_PATH, IDP_SCOPES, LOOPBACK_REDIRECT_PATH } from './constants';
import { PAGE_CSP, renderErrorPage } from './login-page';

/**
 * The oidc-provider instance playing a partner's identity provider for the desktop app: one public
 * native client, authorization code + PKCE only, refresh tokens through offline_access.
 */

/** ES256: small keys, generated in milliseconds at every start (RSA keygen is slow on CI). */
export const SIGNING_ALG = 'ES256';

export interface IdpSecrets {
  /** Private signing JWK; only its public half leaves the process, through the jwks endpoint. */
  signingKey: JWK;
  /** Keys for oidc-provider's signed cookies. */
  cookieKeys: string[];
}

/** Fresh keys per start: tokens from a previous run stop verifying, as after a partner key rotation. */
export async function generateIdpSecrets(): Promise<IdpSecrets> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return {
    signingKey: { ...jwk, kid, alg: SIGNING_ALG, use: 'sig' } as JWK,
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

export interface ProviderSettings {
  clientId: string;
  accounts: DevAccounts;
  secrets: IdpSecrets;
  /** Lifetime of ID tokens; oidc-provider's default is one hour. */
  idTokenTtlSeconds?: number;
  /**
   * Makes the client confidential (client_secret_post): only who holds the secret can redeem a
   * code, so nobody else on the computer can sign in to the app's built-in demo as a clinician.
   */
  clientSecret?: string;
}

/** RFC 8252 section 7.3: loopback IP literals, port left out so that any port is accepted. */
function loopbackRedirectUris(): string[] {
  return [`http://127.0.0.1${LOOPBACK_REDIRECT_PATH}`, `http://[::1]${LOOPBACK_REDIRECT_PATH}`];
}

export function createProvider(issuer: string, settings: ProviderSettings): Provider {
  const { pathname } = new URL(issuer);
  if (pathname !== IDP_PATH) {
    throw new Error(`The IdP issuer must end in ${IDP_PATH} (where it is mounted), got ${issuer}`);
  }
  const { accounts, secrets, clientId, clientSecret } = settings;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        application_type: 'native',
        ...(clientSecret
          ? { token_endpoint_auth_method: 'client_secret_post', client_secret: clientSecret }
          : { token_endpoint_auth_method: 'none' }),
        redirect_uris: loopbackRedirectUris(),
        post_logout_redirect_uris: loopbackRedirectUris(),
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        scope: IDP_SCOPES,
        id_token_signed_response_alg: SIGNING_ALG,
      },
    ],
    responseTypes: ['code'],
    // Public clients get PKCE required by default already; stated so it never depends on a default.
    pkce: { required: () => true },
    scopes: IDP_SCOPES.split(' '),
    claims: { openid: ['sub'], profile: ['name'] },
    // The service reads the provider's name from the ID token (partner_token), not from userinfo,
    // so scope-granted claims go into the ID token even in the code flow.
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => accounts.claims(sub) }),
    jwks: { keys: [secrets.signingKey] },
    cookies: { keys: secrets.cookieKeys },
    features: {
      // Our own login page replaces the library's quick-start pages (see interactions.ts).
      devInteractions: { enabled: false },
      // Lets the desktop app revoke its refresh token at sign-out.
      revocation: { enabled: true },
    },
    interactions: { url: (_ctx, interaction) => `${IDP_PATH}/interaction/${interaction.uid}` },
    // Stated rather than left to defaults (which log a notice each): an hour for tokens, as the
    // service token; two weeks for the refresh token, renewed at every rotation.
    ttl: {
      AccessToken: HOUR,
      IdToken: settings.idTokenTtlSeconds ?? HOUR,
      RefreshToken: 14 * DAY,
      Grant: 14 * DAY,
      Session: DAY,
      Interaction: 10 * 60,
    },
    // Errors the browser sees (bad redirect_uri, unknown client) in the login page's look.
    renderError: (ctx, out) => {
      const detail = [out.error, out.error_description].filter(Boolean).join(': ');
      ctx.set('content-security-policy', PAGE_CSP);
      ctx.type = 'html';
      ctx.body = renderErrorPage('Sign-in failed', detail || 'The sign-in request was refused.');
    },
  };

  // Dev-only state: oidc-provider's in-memory adapter (it prints a warning saying so); every
  // session, grant and refresh token is lost when the sandbox stops.
  const provider = new Provider(issuer, configuration);
  // Plain http on loopback, no TLS-offloading proxy in front: X-Forwarded-* must not be trusted.
  provider.proxy = false;
  return provider;
}
