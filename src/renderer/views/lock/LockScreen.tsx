import { useEffect, useRef, type FormEvent } from 'react';
import { useAppStore } from '../../store/use-app-store';
import { formatClock } from '../../results/format';
import { PinField } from '../PinField';
import { useNow } from '../use-now';
import './lock.css';

/**
 * The locked window (issue 29): every note, transcript and patient detail is gone from it, and
 * only its clinician opens it again. A Bearer or Single Auth Token partner's clinician types the
 * PIN they chose here; a standard partner's signs in again at their organisation; the demo has
 * nothing to protect (Continue). "Not you? Sign out" leaves the window for the next clinician.
 */
export function LockScreen() {
  const privacy = useAppStore((s) => s.privacy);
  const forIdle = useAppStore((s) => s.lockedForIdle);
  const minutes = useAppStore((s) => s.settings?.idleLockMinutes ?? 10);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const clinician = privacy?.clinician;
  return (
    <main className="app-main">
      <section className="card lock-screen" aria-labelledby="lock-heading" data-testid="lock-screen">
        <h2 id="lock-heading" ref={heading} tabIndex={-1}>
          Locked to protect patient details
        </h2>
        <p>
          {forIdle
            ? `Nobody used this window for ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}, so it cleared every note, transcript and patient detail from the screen.`
            : 'This window shows no note, transcript or patient detail until it is unlocked.'}{' '}
          {clinician ? `Only ${clinician} can open it again.` : 'Notes stay with the service.'}
        </p>
        {privacy?.unlockWith === 'pin' ? (
          <PinUnlock />
        ) : privacy?.unlockWith === 'identity-provider' ? (
          <SignInUnlock clinician={clinician ?? 'you'} />
        ) : (
          <ContinueUnlock />
        )}
        {clinician && privacy?.unlockWith !== 'continue' && <NotYou clinician={clinician} />}
      </section>
    </main>
  );
}

function ContinueUnlock() {
  const unlock = useAppStore((s) => s.unlock);
  return (
    <button type="button" className="primary-large" onClick={() => void unlock()}>
      Continue
    </button>
  );
}

/** The PIN, typed into a field that holds it only until main has checked it. */
function PinUnlock() {
  const unlock = useAppStore((s) => s.unlock);
  const busy = useAppStore((s) => s.privacyBusy);
  const error = useAppStore((s) => s.privacyError);
  const triesLeft = useAppStore((s) => s.privacy?.pinTriesLeft);
  // After too many wrong PINs main takes no try before then (issue 37): the wait counts down here.
  const waitUntil = useAppStore((s) => s.pinWaitEndsAt ?? undefined);
  const now = useNow(waitUntil !== undefined);
  const waitS = waitUntil !== undefined ? Math.ceil((waitUntil - now) / 1_000) : 0;
  const waiting = waitS > 0;
  const input = useRef<HTMLInputElement>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const pin = input.current?.value ?? '';
    const unlocked = await unlock({ pin });
    if (!unlocked && input.current) {
      input.current.value = '';
      input.current.focus();
    }
  };
  // A refusal that said to wait no longer holds once the wait is over (issue 37: an error goes with
  // its cause).
  const problem = error && (waiting || !/\bwait\b/i.test(error)) ? error : undefined;
  // A refusal already says how many tries are left: the hint does not say it twice.
  const hint =
    !problem && triesLeft !== undefined && triesLeft < 8
      ? `${triesLeft} ${triesLeft === 1 ? 'try' : 'tries'} left before IT must reset your PIN.`
      : 'The PIN you chose for this computer.';
  return (
    <form className="pin-form" onSubmit={(event) => void submit(event)} data-testid="pin-unlock">
      <PinField label="PIN" hint={hint} problem={problem} inputRef={input} testId="pin" />
      {waiting && (
        <p role="timer" aria-live="off" className="pin-wait" data-testid="pin-wait">
          Next try in {formatClock(waitS)}
        </p>
      )}
      <button type="submit" className="primary-large" disabled={busy || waiting}>
        {busy ? 'Checking…' : waiting ? 'Wait to unlock' : 'Unlock'}
      </button>
    </form>
  );
}

/** A standard partner's clinician signs in again at their organisation, password and all. */
function SignInUnlock(props: { clinician: string }) {
  const unlock = useAppStore((s) => s.unlock);
  const cancel = useAppStore((s) => s.cancelSignIn);
  const busy = useAppStore((s) => s.privacyBusy);
  const error = useAppStore((s) => s.privacyError);
  const signInUrl = useAppStore((s) => s.signInUrl);
  return (
    <div className="pin-form">
      {busy ? (
        <p role="status">
          Finish signing in in your browser.{' '}
          {signInUrl && (
            <a href={signInUrl} target="_blank" rel="noopener noreferrer">
              Open the sign-in page
            </a>
          )}
        </p>
      ) : (
        error && (
          <p className="problem" role="alert">
            {error}
          </p>
        )
      )}
      <div className="actions">
        <button
          type="button"
          className="primary-large"
          disabled={busy}
          onClick={() => void unlock({ signIn: true })}
        >
          Sign in as {props.clinician} to unlock
        </button>
        {busy && (
          <button type="button" onClick={() => void cancel()}>
            Cancel
          </button>
        )}
      </div>
    </div>
  );
}

/** Another clinician at this laptop: the window signs out, and they sign in as themselves. */
function NotYou(props: { clinician: string }) {
  const signOut = useAppStore((s) => s.signOut);
  return (
    <p className="lock-not-you">
      Not {props.clinician}?{' '}
      <button type="button" className="link-button" onClick={() => void signOut()}>
        Sign out
      </button>
    </p>
  );
}
