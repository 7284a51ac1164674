export { createAuthManager, type AuthManager, type AuthManagerOptions } from './auth-manager';
export type { AuthPhase, AuthStatus } from './auth-status';
export type { AuthProblemId } from './auth-errors';
export type { OidcSettings } from './oidc-client';
export type { RegisterProfile } from './service-login';
