import { useEffect, useId, useState } from 'react';
import type { RecorderView } from '../../shared/contract';
import { formatClock } from '../results/format';
import { RECORDING_STATES } from '../store/recording-states';
import { useAppStore } from '../store/use-app-store';
import { EncounterForm } from './encounter/EncounterForm';
import { useShortcut, SHORTCUTS } from './shortcuts';
import { LevelMeter } from './LevelMeter';
import { MicrophoneCheck } from './MicrophoneCheck';
import { RecordingDetails } from './RecordingDetails';
import { MicrophonePicker } from './MicrophonePicker';

const STATE_WORDS: Record<RecorderView['state'], string> = {
  idle: 'Ready to record',
  connecting: 'Connecting…',
  streaming: 'Recording',
  'auto-paused': 'Recording — paused while nobody speaks',
  paused: 'Paused',
  reconnecting: 'Recording — reconnecting to the service',
  offline: 'Recording — offline, audio kept on this computer',
  ending: 'Finishing…',
  ended: 'Visit ended',
  cancelled: 'Recording cancelled',
  failed: 'Recording failed',
};

/**
 * The visit: its details before Start; while recording, an indicator that cannot be missed (red
 * dot, state in words, elapsed time, also in the window title), the microphone working (level,
 * speech, device, warnings), and Pause/Resume, End and Cancel, with keyboard shortcuts.
 */
export function RecordView() {
  const headingId = useId();
  // Narrow selectors: main reports the recorder ten times a second (elapsed time, backlog), and
  // this view only needs to redraw when the state or its reason changes.
  const state = useAppStore((s) => s.recorder?.state ?? 'idle');
  const reason = useAppStore((s) => s.recorder?.reason);
  const notice = useAppStore((s) => s.recorder?.notice);
  const capture = useAppStore((s) => s.capture);
  const error = useAppStore((s) => s.recordingError);
  const rejoined = useAppStore((s) => s.recordingNotice);
  const start = useAppStore((s) => s.startRecording);
  const end = useAppStore((s) => s.endRecording);
  const pause = useAppStore((s) => s.pauseRecording);
  const resume = useAppStore((s) => s.resumeRecording);
  const cancel = useAppStore((s) => s.cancelRecording);
  // Whole seconds, so the view redraws once a second rather than with every report.
  const elapsedS = useAppStore((s) => Math.floor((s.recorder?.elapsedMs ?? 0) / 1_000));
  const encounterId = useAppStore((s) => s.recorder?.encounterId);
  // Nobody signed in, nothing can be sent: Start says so, with the way to sign in beside it.
  const signedOut = useAppStore((s) => s.auth !== null && !s.auth.signedIn && !s.auth.signingIn);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const recording = RECORDING_STATES.has(state);
  // The state and the time, in the taskbar too: "● Recording 4:12 — Ambient Scribe".
  useRecordingTitle(
    recording ? `${state === 'paused' ? 'Paused' : 'Recording'} ${formatClock(elapsedS)}` : undefined,
  );
  useShortcut(SHORTCUTS.pauseResume, recording, () => void (state === 'paused' ? resume() : pause()));
  useShortcut(SHORTCUTS.end, recording, () => void end());

  return (
    <section className="card record" aria-labelledby={headingId}>
      <h2 id={headingId}>Visit</h2>
      <p className="record-state" role="status" data-testid="recorder-state" data-state={state}>
        {recording && <span className="rec-dot" aria-hidden="true" data-paused={state === 'paused'} />}
        {STATE_WORDS[state]}
        {reason ? ` — ${reason}` : ''}
        {recording && (
          <time className="elapsed" data-testid="elapsed">
            {' '}
            {formatClock(elapsedS)}
          </time>
        )}
      </p>
      {recording && <RecordingDetails />}
      {recording ? (
        <p className="muted" data-testid="encounter-id">
          Encounter {encounterId}
        </p>
      ) : (
        // The visit before may still be finishing (offline, say): the next one need not wait for it.
        <EncounterForm />
      )}
      <MicrophonePicker />
      {!recording && <MicrophoneCheck />}
      {recording && capture && (
        <>
          <LevelMeter />
          <p className="muted" data-testid="microphone-name">
            Microphone: {capture.device?.label || 'system default'}
            {capture.voiceDetection === 'loading' && ' · starting voice detection…'}
          </p>
        </>
      )}
      {recording && rejoined && (
        <p className="warning" role="status" data-testid="rejoined-notice">
          {rejoined}
        </p>
      )}
      {notice && (
        <p className="warning" role="alert" data-testid="recording-notice">
          {notice}
        </p>
      )}
      {capture?.notice && (
        <p className="warning" role="alert" data-testid="capture-notice">
          {capture.notice}
        </p>
      )}
      {recording && capture?.voiceDetection === 'unavailable' && (
        <p className="warning" role="alert">
          Voice detection could not start, so the app records continuously. Nothing is lost.
        </p>
      )}
      {recording && capture?.noSignal && (
        <p className="warning" role="alert" data-testid="no-signal">
          The microphone sends no sound. Check that it is not muted and is plugged in.
        </p>
      )}
      {recording && capture?.state === 'stalled' && (
        <p className="warning" role="alert" data-testid="capture-stalled">
          The microphone stopped sending audio. The recording is paused until it returns.
        </p>
      )}
      {error && (
        <p className="error" role="alert" data-testid="recording-error">
          {error}
        </p>
      )}
      <div className="actions">
        {recording ? (
          <>
            <button type="button" onClick={() => void end()} aria-keyshortcuts={SHORTCUTS.end.aria}>
              End visit <kbd>{SHORTCUTS.end.label}</kbd>
            </button>
            {state === 'paused' ? (
              <button
                type="button"
                className="link-button"
                onClick={() => void resume()}
                aria-keyshortcuts={SHORTCUTS.pauseResume.aria}
              >
                Resume <kbd>{SHORTCUTS.pauseResume.label}</kbd>
              </button>
            ) : (
              <button
                type="button"
                className="link-button"
                onClick={() => void pause()}
                aria-keyshortcuts={SHORTCUTS.pauseResume.aria}
              >
                Pause <kbd>{SHORTCUTS.pauseResume.label}</kbd>
              </button>
            )}
            {confirmingCancel ? (
              <span className="confirm" role="group" aria-label="Discard this visit?">
                Discard this visit? Nothing of it will be kept.
                <button
                  type="button"
                  className="danger-button"
                  onClick={() => {
                    setConfirmingCancel(false);
                    void cancel();
                  }}
                >
                  Discard
                </button>
                <button type="button" className="link-button" onClick={() => setConfirmingCancel(false)}>
                  Keep recording
                </button>
              </span>
            ) : (
              <button type="button" className="link-button" onClick={() => setConfirmingCancel(true)}>
                Cancel…
              </button>
            )}
          </>
        ) : signedOut ? (
          <>
            {/* The way to sign in is the rail's Sign in, beside this. */}
            <button type="button" disabled aria-describedby={`${headingId}-signed-out`}>
              Start recording
            </button>
            <span id={`${headingId}-signed-out`} className="muted" data-testid="start-signed-out">
              Sign in to record
            </span>
          </>
        ) : (
          <button type="button" onClick={() => void start()}>
            Start recording
          </button>
        )}
      </div>
    </section>
  );
}

/** While recording, the window title says so too: visible in the taskbar when the app is behind. */
function useRecordingTitle(word: string | undefined): void {
  useEffect(() => {
    if (!word) return;
    const previous = document.title;
    document.title = `● ${word} — ${previous}`;
    return () => {
      document.title = previous;
    };
  }, [word]);
}
