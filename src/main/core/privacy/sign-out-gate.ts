import { UserFacingError } from '../user-facing-error';

/**
 * A clinician who pressed Sign out is signed out until they press Sign in (issue 29). A Bearer or
 * Single Auth Token partner's token is the organisation's, so the app could sign in again by
 * itself at any call; after Sign out it must not: no call is made on the clinician's behalf and
 * nothing of a visit opens (a past note, its edits, Finish, a form's feedback) until they sign in.
 */
export function createSignOutGate() {
  let signedOut = false;
  return {
    signedOut: () => signedOut,
    signOut(): void {
      signedOut = true;
    },
    signIn(): void {
      signedOut = false;
    },
    /** Refuses while signed out, saying what signing in would let them do. */
    refuseWhileSignedOut(what: string): void {
      if (signedOut) throw new UserFacingError('invalid_request', `You signed out: sign in to ${what}.`);
    },
  };
}
