import { UserFacingError } from '../user-facing-error';

/**
 * Nothing of a visit opens for nobody (issue 29). A clinician who pressed Sign out is signed out
 * until they press Sign in: a Bearer or Single Auth Token partner's token is the organisation's,
 * so the app could sign in again by itself at any call, and must not. A window the idle lock
 * locked opens nothing either until it is unlocked, whatever a reload or a second tab asks main.
 * Meanwhile no call is made on the clinician's behalf and nothing of a visit opens (a past note,
 * its edits, Finish, a form's feedback, a new recording).
 */
export function createSignOutGate() {
  let signedOut = false;
  let locked = false;
  return {
    signedOut: () => signedOut,
    locked: () => locked,
    /** Neither signed out nor locked: calls on the clinician's behalf may go. */
    open: () => !signedOut && !locked,
    signOut(): void {
      signedOut = true;
    },
    signIn(): void {
      signedOut = false;
    },
    lock(): void {
      locked = true;
    },
    unlock(): void {
      locked = false;
    },
    /** Refuses while signed out or locked, saying what signing in or unlocking would let them do. */
    refuseWhileSignedOut(what: string): void {
      if (signedOut) throw new UserFacingError('invalid_request', `You signed out: sign in to ${what}.`);
      if (locked)
        throw new UserFacingError('invalid_request', `This window is locked: unlock it to ${what}.`);
    },
  };
}
