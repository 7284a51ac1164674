import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAppStore } from '../store/use-app-store';
import { PinField } from './PinField';
import './lock/lock.css';

/**
 * The first sign-in on this computer of a Bearer or Single Auth Token partner's clinician (issue
 * 29): their partner token is the organisation's, so the window asks for a PIN of their own before
 * it shows anything of a patient. When the window locks, or after Sign out, only this PIN opens it
 * as them. Both fields are uncontrolled: the PIN lives in no React state.
 */
export function PinSetup() {
  const clinician = useAppStore((s) => s.auth?.providerId);
  const setPin = useAppStore((s) => s.setPin);
  const busy = useAppStore((s) => s.privacyBusy);
  const mainError = useAppStore((s) => s.privacyError);
  const signOut = useAppStore((s) => s.signOut);
  const [mismatch, setMismatch] = useState<string | null>(null);
  const pin = useRef<HTMLInputElement>(null);
  const again = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = pin.current?.value ?? '';
    if (typed !== (again.current?.value ?? '')) {
      setMismatch('Confirm PIN: the two PINs are not the same. Type it again.');
      again.current?.focus();
      return;
    }
    setMismatch(null);
    if (!(await setPin(typed))) pin.current?.focus();
  };
  return (
    <main className="app-main">
      <section className="card lock-screen" aria-labelledby="pin-heading" data-testid="pin-setup">
        <h2 id="pin-heading" ref={heading} tabIndex={-1}>
          Choose a PIN for this computer
        </h2>
        <p>
          When this window locks, or after you sign out, your PIN opens it again as {clinician ?? 'you'}, so
          nobody else at this laptop sees your patients&apos; notes. Use 4 to 12 digits.
        </p>
        <form className="pin-form" onSubmit={(event) => void submit(event)}>
          <PinField
            label="PIN"
            hint="4 to 12 digits."
            problem={mainError ?? undefined}
            inputRef={pin}
            testId="new-pin"
          />
          <PinField
            label="Confirm PIN"
            problem={mismatch ?? undefined}
            inputRef={again}
            testId="new-pin-again"
          />
          <button type="submit" className="primary-large" disabled={busy}>
            Set PIN
          </button>
        </form>
        <p className="lock-not-you">
          Not {clinician ?? 'you'}?{' '}
          <button type="button" className="link-button" onClick={() => void signOut()}>
            Sign out
          </button>
        </p>
      </section>
    </main>
  );
}
