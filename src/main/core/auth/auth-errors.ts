import { ServiceCallError } from '../service/service-error';

/**
 * Problems that arise on the app's side of signing in (nothing to send yet, the browser step, the
 * identity provider). They are ServiceCallErrors with status 0, so every caller of the TokenSource
 * handles one error type; the sentence says what to do and never carries a secret.
 */
export type AuthProblemId =
  | 'not_configured'
  | 'partner_token_missing'
  | 'profile_incomplete'
  | 'sign_in_needed'
  | 'sign_in_cancelled'
  | 'sign_in_timeout'
  | 'sign_in_failed'
  | 'browser_unavailable'
  | 'idp_unreachable'
  | 'signed_out';

const SENTENCES: Record<AuthProblemId, string> = {
  not_configured: 'Sign-in is not set up yet. Check the service settings.',
  partner_token_missing:
    'Enter the partner token from your IT admin in Settings (Partner token), then sign in.',
  profile_incomplete:
    'This provider is not registered with the service yet, and registering needs the provider name and organization ID. Enter them in Settings.',
  sign_in_needed: 'Your sign-in has ended. Sign in again to continue.',
  sign_in_cancelled: 'Sign-in was cancelled.',
  sign_in_timeout: 'Sign-in was not finished in the browser in time. Start signing in again.',
  sign_in_failed:
    'The sign-in page did not complete the sign-in. Try again; if it keeps happening, ask your IT admin.',
  browser_unavailable: 'The app could not open the web browser for sign-in.',
  idp_unreachable: 'The sign-in service cannot be reached. Check the network and try again.',
  signed_out: 'You signed out.',
};

export function authError(id: AuthProblemId, detail = '', sentence = SENTENCES[id]): ServiceCallError {
  return new ServiceCallError(0, id, sentence, detail);
}

export function isAuthProblem(error: unknown, id: AuthProblemId): boolean {
  return error instanceof ServiceCallError && error.status === 0 && error.id === id;
}

/** Anything thrown while signing in, as a ServiceCallError whose text is safe to show and log. */
export function asServiceCallError(error: unknown): ServiceCallError {
  if (error instanceof ServiceCallError) return error;
  // Not ours: its message may come from anywhere, so only its kind is kept.
  return authError('sign_in_failed', error instanceof Error ? error.name : typeof error);
}
