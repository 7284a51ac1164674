import { useEffect, useRef } from 'react';
import { useAppStore } from '../store/use-app-store';

/**
 * After the idle time: the window has forgotten every patient detail it showed, and says so.
 * Continue opens the workspace on a new visit; History shows times, encounters and states only.
 */
export function LockScreen() {
  const unlock = useAppStore((s) => s.unlock);
  const minutes = useAppStore((s) => s.settings?.idleLockMinutes ?? 10);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <main className="app-main">
      <section className="card lock-screen" aria-labelledby="lock-heading" data-testid="lock-screen">
        <h2 id="lock-heading" ref={heading} tabIndex={-1}>
          Locked to protect patient details
        </h2>
        <p>
          Nobody used this window for {minutes} {minutes === 1 ? 'minute' : 'minutes'}, so it cleared every
          note, transcript and patient detail from the screen. Notes stay with the service: open a visit from
          the list to see its note again.
        </p>
        <button type="button" className="primary-large" onClick={() => void unlock()}>
          Continue
        </button>
      </section>
    </main>
  );
}
