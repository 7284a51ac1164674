/** The sandbox's OpenID Connect identity provider (a partner's IdP) and ID token verification. */
export { builtinIdp, DEFAULT_CLIENT_ID, IDP_PATH, IDP_SCOPES, LOOPBACK_REDIRECT_PATH } from './constants';
export { mountIdp, type MountedIdp, type MountIdpOptions } from './mount';
export {
  IdTokenError,
  verifyIdToken,
  type ExpectedIdToken,
  type IdTokenProblem,
  type VerifiedIdToken,
} from './verify-id-token';
export {
  discoverIdp,
  refreshIdToken,
  signInHeadless,
  type HeadlessSignInOptions,
  type HeadlessSignInResult,
  type IdpTokens,
} from './headless-sign-in';
