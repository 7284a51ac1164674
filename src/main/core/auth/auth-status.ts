import type { AuthModel } from '../../../shared/settings';
import type { SecretPersistence } from '../secrets/secret-box';

/** Where sign-in stands, for the UI. Holds no secret: no token of any kind, ever. */
export type AuthPhase =
  /** No service token, nothing going on. */
  | 'signed-out'
  /** Logging in (or registering) with the service. */
  | 'signing-in'
  /** A standard partner's sign-in page is open in the browser; cancelSignIn() stops it. */
  | 'waiting-for-browser'
  | 'signed-in'
  /** Signed in, and renewing the service token in the background. */
  | 'refreshing'
  /** The app cannot sign in again on its own: the user has to (signIn()). */
  | 'sign-in-needed';

export interface AuthStatus {
  signedIn: boolean;
  phase: AuthPhase;
  model: AuthModel;
  /** The provider the service knows: the configured one, or the ID token's subject (standard). */
  providerId: string;
  /** Standard partners: the name the identity provider gave. */
  providerName?: string;
  /** Wall-clock ms when the current service token ends (renewed well before). */
  validUntil?: number;
  /** The last problem, as a sentence a clinician can act on; cleared by the next success. */
  problem?: string;
  /** Its stable id (service error ids, or the app's: sign_in_needed, partner_token_missing...). */
  problemId?: string;
  /** Where the partner token or refresh token is kept, and a notice when that is weak. */
  secretStorage: SecretPersistence;
  secretNotice?: string;
}
