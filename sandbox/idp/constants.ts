/**
 * Fixed facts about the sandbox's own identity provider, shared by the mount, the headless sign-in
 * and whoever resolves a partner's "builtin" jwks_url/issuer (sandbox/partners.ts).
 */

/** Where the IdP lives on the sandbox server; the issuer is `${sandboxOrigin}${IDP_PATH}`. */
export const IDP_PATH = '/idp';

/** The desktop app's client id; also the `aud` of the ID tokens (DEFAULT_PARTNERS' audience). */
export const DEFAULT_CLIENT_ID = 'ambient-scribe-desktop';

/** offline_access is what earns the desktop app a refresh token to renew sign-in. */
export const IDP_SCOPES = 'openid profile offline_access';

/**
 * The path of the RFC 8252 loopback redirect. The port is not registered: oidc-provider ignores the
 * port of loopback redirect URIs for native clients, so any http://127.0.0.1:<port>/callback works.
 */
export const LOOPBACK_REDIRECT_PATH = '/callback';

/** The issuer and JWKS URL of the builtin IdP of a sandbox reachable at `sandboxUrl`. */
export function builtinIdp(sandboxUrl: string): { issuer: string; jwksUrl: string } {
  const issuer = `${new URL(sandboxUrl).origin}${IDP_PATH}`;
  // oidc-provider's default jwks route, under the issuer (also advertised as jwks_uri in discovery).
  return { issuer, jwksUrl: `${issuer}/jwks` };
}
