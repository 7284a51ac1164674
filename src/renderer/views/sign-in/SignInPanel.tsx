import { useState } from 'react';
import type { AuthStatus } from '../../../shared/contract';
import { useAppStore } from '../../store/use-app-store';
import './sign-in.css';

/** What the built-in sandbox's standard sign-in asks for, said plainly before it opens. */
function demoNote(auth: AuthStatus): string | undefined {
  return auth.demo && auth.model === 'standard'
    ? 'Demo sign-in: the sandbox’s own sign-in page asks only for a user name, no password.'
    : undefined;
}

/**
 * Where sign-in stands, in the top bar: who is signed in (never a token), or that nobody is, or
 * the wait for the browser. Not until when: the app renews the service token by itself, and a
 * clinician has nothing to do with that time (issue 31).
 */
export function SignInStatus() {
  const auth = useAppStore((s) => s.auth);
  const authError = useAppStore((s) => s.authError);
  const waitingForBrowser = auth?.signingIn === true && auth.model === 'standard';
  return (
    <p className="sign-in-state" role="status" data-testid="sign-in-state">
      {!auth && (authError ? 'Sign-in status unknown' : 'Checking sign-in…')}
      {auth?.signedIn && (
        <>
          Signed in as <strong>{auth.providerId}</strong>
        </>
      )}
      {auth && !auth.signedIn && waitingForBrowser && 'Waiting for you to sign in in the browser…'}
      {auth && !auth.signedIn && auth.signingIn && !waitingForBrowser && 'Signing in…'}
      {auth && !auth.signedIn && !auth.signingIn && 'Not signed in'}
    </p>
  );
}

/**
 * What the next visit needs before Start, while nobody is signed in: the Sign in button (beside
 * the disabled Start), Cancel while the browser's sign-in page is open, and main's sentence for
 * anything that went wrong, with what to do. Nothing while signed in without a problem.
 */
export function SignInNeeded() {
  const auth = useAppStore((s) => s.auth);
  const authError = useAppStore((s) => s.authError);
  const signInUrl = useAppStore((s) => s.signInUrl);
  const cancelSignIn = useAppStore((s) => s.cancelSignIn);
  const problem = authError ?? auth?.problem;
  const waitingForBrowser = auth?.signingIn === true && auth.model === 'standard';
  if (!auth || (auth.signedIn && !problem)) return null;
  return (
    <div className="sign-in-needed" data-testid="sign-in">
      {waitingForBrowser && (
        <p className="hint">
          Waiting for the sign-in page in your browser.{' '}
          <button type="button" className="link-button" onClick={() => void cancelSignIn()}>
            Cancel
          </button>
          {signInUrl && (
            <>
              {' '}
              No sign-in page? Your browser may have blocked it:{' '}
              <a href={signInUrl} target="_blank" rel="noopener noreferrer">
                open the sign-in page
              </a>
              .
            </>
          )}
        </p>
      )}
      {!auth.signedIn && !auth.signingIn && auth.model === 'standard' && !auth.demo && (
        <p className="hint">Sign in opens your organisation’s sign-in page in the browser.</p>
      )}
      {!auth.signedIn && demoNote(auth) && <p className="hint">{demoNote(auth)}</p>}
      {problem && (
        <p className="problem" role="alert" data-testid="sign-in-problem">
          {problem}
        </p>
      )}
    </div>
  );
}

/**
 * Sign in, beside the Start it enables, or on the visit pane of a signed-out window. `saysRefusal`: where nothing else on screen says why a sign-in was refused (the visit
 * pane), it says so itself, in one sentence.
 */
export function SignInButton({ saysRefusal = false }: { saysRefusal?: boolean }) {
  const signIn = useAppStore((s) => s.signIn);
  const refused = useAppStore((s) => s.authError);
  // A refusal is said here, where Sign in was pressed (issue 37: on the visit pane it was silent).
  const [pressed, setPressed] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setPressed(true);
          void signIn();
        }}
      >
        Sign in
      </button>
      {saysRefusal && pressed && refused && (
        <p className="error" role="alert" data-testid="sign-in-refused">
          {refused}
        </p>
      )}
    </>
  );
}
