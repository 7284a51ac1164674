import { useId } from 'react';
import type { AuthStatus } from '../../shared/contract';
import { useAppStore } from '../store/use-app-store';

/** A wall-clock time in the clinician's own time zone and clock style, e.g. 14:32 or 2:32 PM. */
export function formatLocalTime(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
}

/** What the built-in sandbox does instead of a real sign-in, said plainly. */
function demoNote(auth: AuthStatus): string | undefined {
  if (!auth.demo) return undefined;
  return auth.model === 'standard'
    ? 'Demo sign-in: the sandbox’s own sign-in page asks only for a user name, no password.'
    : 'Demo sign-in: the built-in sandbox knows its own partner token, so no account or token is needed.';
}

/**
 * Where sign-in with the service stands, at the top of the visit screen: who is signed in and until
 * when (never a token), or a Sign in button; for standard partners the wait for the browser, with
 * Cancel. Problems are main's sentences, each with what to do.
 */
export function SignInPanel() {
  const auth = useAppStore((s) => s.auth);
  const authError = useAppStore((s) => s.authError);
  const signInUrl = useAppStore((s) => s.signInUrl);
  const signIn = useAppStore((s) => s.signIn);
  const cancelSignIn = useAppStore((s) => s.cancelSignIn);
  const signOut = useAppStore((s) => s.signOut);
  const headingId = useId();

  const waitingForBrowser = auth?.signingIn === true && auth.model === 'standard';
  return (
    <section className="card sign-in" aria-labelledby={headingId} data-testid="sign-in">
      <h2 id={headingId} className="visually-hidden">
        Sign-in
      </h2>
      <div className="sign-in-row">
        <p className="sign-in-state" role="status" data-testid="sign-in-state">
          {!auth && (authError ? 'Sign-in status unknown' : 'Checking sign-in…')}
          {auth?.signedIn && (
            <>
              Signed in as <strong>{auth.providerId}</strong>
              {auth.validUntil !== undefined && (
                <span className="muted-inline"> · valid until {formatLocalTime(auth.validUntil)}</span>
              )}
            </>
          )}
          {auth && !auth.signedIn && waitingForBrowser && 'Waiting for you to sign in in the browser…'}
          {auth && !auth.signedIn && auth.signingIn && !waitingForBrowser && 'Signing in…'}
          {auth && !auth.signedIn && !auth.signingIn && 'Not signed in'}
        </p>
        {auth && (
          <div className="sign-in-actions">
            {waitingForBrowser && (
              <button type="button" className="link-button" onClick={() => void cancelSignIn()}>
                Cancel
              </button>
            )}
            {!auth.signedIn && !auth.signingIn && (
              <button type="button" onClick={() => void signIn()}>
                Sign in
              </button>
            )}
            {auth.signedIn && (
              <button type="button" className="link-button" onClick={() => void signOut()}>
                Sign out
              </button>
            )}
          </div>
        )}
      </div>
      {waitingForBrowser && signInUrl && (
        <p className="hint">
          No sign-in page? Your browser may have blocked it:{' '}
          <a href={signInUrl} target="_blank" rel="noopener noreferrer">
            open the sign-in page
          </a>
          .
        </p>
      )}
      {auth && !auth.signedIn && !auth.signingIn && auth.model === 'standard' && !auth.demo && (
        <p className="hint">Sign in opens your organisation’s sign-in page in the browser.</p>
      )}
      {auth && demoNote(auth) && <p className="hint">{demoNote(auth)}</p>}
      {(authError ?? auth?.problem) && (
        <p className="problem" role="alert" data-testid="sign-in-problem">
          {authError ?? auth?.problem}
        </p>
      )}
    </section>
  );
}
