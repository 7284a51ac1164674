import type { CallState } from '../../audio/capture-types';
import { useAppStore } from '../../store/use-app-store';
import './call-sound.css';

/** What the line says for each state of the call's sound. */
const WORDS: Record<CallState, string> = {
  recording: 'Recording this computer’s sound too: the call',
  ended: 'The call’s sound stopped: recording your microphone only',
  'not-shared':
    'The call’s sound is not being recorded (the window reloaded): recording your microphone only',
};

/**
 * While the call is mixed in, what happens to it is what happens to the microphone: a pause of the
 * clinician's records neither; a pause while nobody speaks listens to both (the patient speaking
 * on the call resumes it) and sends neither.
 */
function liveWords(recorderState: string | undefined): string {
  if (recorderState === 'paused') return 'Paused: this computer’s sound is not recorded either';
  if (recorderState === 'auto-paused') return 'Listening to this computer’s sound too: the call';
  return WORDS.recording;
}

/**
 * A telehealth visit's second source, said under the state line for as long as the visit records
 * (issue 30): the window always says when this computer's sound is being recorded, and when it is
 * not any more (the call's window closed, sharing stopped, or the window reloaded), with the way to
 * record it again; and asks for a headset when the microphone hears the call (call-echo.ts).
 * Nothing in a visit in the room.
 */
export function CallSoundLine() {
  const call = useAppStore((s) => s.capture?.call);
  const captureState = useAppStore((s) => s.capture?.state);
  const recorderState = useAppStore((s) => s.recorder?.state);
  const echo = useAppStore((s) => s.capture?.callEcho === true);
  const sharing = useAppStore((s) => s.sharingCall);
  const shareAgain = useAppStore((s) => s.shareCallAgain);
  // The capture failed or stopped (the microphone could not be opened again): nothing of either
  // source is taken, which the recording's own notice says; this line would only contradict it.
  if (!call || captureState === 'failed' || captureState === 'stopped') return null;
  const live = call === 'recording';
  return (
    <div className="call-sound" data-state={call}>
      <p
        className={live ? 'call-sound-line' : 'call-sound-line warning'}
        role="status"
        data-testid="call-state"
      >
        {live ? <SpeakerIcon /> : <span aria-hidden="true">⚠</span>}
        {live ? liveWords(recorderState) : WORDS[call]}
      </p>
      {!live && (
        <button type="button" className="link-button" disabled={sharing} onClick={() => void shareAgain()}>
          {sharing ? 'Choosing the call…' : 'Record the call’s sound again'}
        </button>
      )}
      {live && echo && (
        <p className="warning call-echo" role="status" data-testid="call-echo">
          The microphone also hears the call from the speakers. A headset keeps the patient’s voice clear in
          the note.
        </p>
      )}
    </div>
  );
}

/** A loudspeaker with sound waves: drawn, not an emoji, which the system may have no font for. */
function SpeakerIcon() {
  return (
    <svg
      className="call-sound-icon"
      viewBox="0 0 24 24"
      width="22"
      height="22"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor" />
      <path
        d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}
