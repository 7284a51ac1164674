import { useEffect, useId, useRef } from 'react';
import type { RecorderView } from '../../../shared/contract';
import { useAppStore } from '../../store/use-app-store';
import { EncounterForm } from '../encounter/EncounterForm';
import { MicrophoneCheck } from '../MicrophoneCheck';
import { MicrophonePicker } from '../MicrophonePicker';
import { SHORTCUTS, useShortcut } from '../shortcuts';
import { SignInButton, SignInNeeded } from '../sign-in/SignInPanel';
import { useFocusOnArrival } from '../focus-on-arrival';
import { ConsentCheck } from './ConsentCheck';
import { VisitAudioChoice } from './VisitAudioChoice';
import { VisitDetailsProblem } from './VisitDetailsProblem';

/** What the last visit's end left to say on the next one's screen; nothing after a normal End. */
const AFTER_WORDS: Partial<Record<RecorderView['state'], string>> = {
  idle: 'Ready to record',
  cancelled: 'Visit discarded',
  failed: 'Recording failed',
};

/**
 * The next visit, ready to start (issue 17): the encounter, date of birth and sex in one row; the
 * note and forms in one line that opens; where the patient is (in the room, or on a video call:
 * issue 30); the microphone small; one large Start with its shortcut.
 * Nobody signed in: Start is disabled and says so, with Sign in beside it.
 */
export function ReadyPane() {
  const headingId = useId();
  const state = useAppStore((s) => s.recorder?.state ?? 'idle');
  const reason = useAppStore((s) => s.recorder?.reason);
  const error = useAppStore((s) => s.recordingError);
  const start = useAppStore((s) => s.startRecording);
  const auth = useAppStore((s) => s.auth);
  const opening = useAppStore((s) => s.openingMicrophone);
  const sharingCall = useAppStore((s) => s.sharingCall);
  // The call's sound was not shared (or cannot be here): this visit can still record the
  // microphone, also where the organisation locks Telehealth (issue 30).
  const offerMicrophoneOnly = useAppStore(
    (s) => s.callNotShared && s.recordingError !== null && s.settings?.visitAudio === 'telehealth',
  );
  const linked = useAppStore(
    (s) => s.linkedEncounterId !== null && s.linkedEncounterId === s.draft?.encounterId,
  );
  // Nobody signed in, nothing can be sent: Start says so, with the way to sign in beside it.
  const signedOut = auth !== null && !auth.signedIn;
  // The organisation requires the patient's consent: Start waits for the check (issue 29).
  const consentMissing = useAppStore(
    (s) => s.settings?.consent === 'required' && s.draft?.consent.given !== true,
  );
  useShortcut(SHORTCUTS.end, !signedOut && !consentMissing, () => void start());
  // The voice model loads while the clinician fills in the visit, not in its first seconds.
  const prepareVoiceDetection = useAppStore((s) => s.prepareVoiceDetection);
  useEffect(() => {
    if (!signedOut) prepareVoiceDetection();
  }, [signedOut, prepareVoiceDetection]);
  // After Sign in (or a visit discarded), the keyboard carries on from the next visit's heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnArrival(heading, !signedOut);

  return (
    <section className="card record ready" aria-labelledby={headingId}>
      <div className="ready-header">
        <h2 id={headingId} ref={heading} tabIndex={-1}>
          Next visit
        </h2>
        <p className="muted" role="status" data-testid="recorder-state" data-state={state}>
          {sharingCall
            ? 'Choose the call to record, with its sound…'
            : opening
              ? 'Opening the microphone…'
              : (AFTER_WORDS[state] ?? '')}
          {state === 'failed' && reason ? ` — ${reason}` : ''}
        </p>
        {linked && (
          <p className="muted" data-testid="linked-visit">
            Opened from the EHR.
          </p>
        )}
      </div>
      {/* The visit before may still be finishing (offline, say): the next one need not wait for it. */}
      <EncounterForm />
      <VisitAudioChoice />
      <div className="mic-row">
        <MicrophonePicker />
        <MicrophoneCheck />
      </div>
      <ConsentCheck />
      <SignInNeeded />
      {/* Start, and why it did nothing, stay in view however long the details are (issue 31). */}
      <div className="start-bar">
        {error && (
          <p className="error" role="alert" data-testid="recording-error">
            {error}
          </p>
        )}
        <VisitDetailsProblem />
        <div className="start-row">
          {signedOut ? (
            <>
              <button type="button" className="start" disabled aria-describedby={`${headingId}-signed-out`}>
                Start recording
              </button>
              <span id={`${headingId}-signed-out`} className="muted" data-testid="start-signed-out">
                {auth.signingIn ? 'Signing in…' : 'Sign in to record'}
              </span>
              {!auth.signingIn && <SignInButton />}
            </>
          ) : (
            <>
              <button
                type="button"
                className="start"
                disabled={opening || sharingCall || consentMissing}
                onClick={() => void start()}
                aria-keyshortcuts={SHORTCUTS.end.aria}
                {...(consentMissing ? { 'aria-describedby': `${headingId}-consent` } : {})}
              >
                Start recording <kbd>{SHORTCUTS.end.label}</kbd>
              </button>
              {consentMissing && (
                <span id={`${headingId}-consent`} className="muted" data-testid="start-needs-consent">
                  Check the patient’s consent first
                </span>
              )}
              {offerMicrophoneOnly && (
                <button
                  type="button"
                  disabled={opening || sharingCall || consentMissing}
                  className="link-button"
                  onClick={() => void start({ microphoneOnly: true })}
                  data-testid="start-microphone-only"
                >
                  Record the microphone only
                </button>
              )}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
