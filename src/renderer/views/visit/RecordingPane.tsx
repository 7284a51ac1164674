import { useEffect, useId, useRef } from 'react';
import type { RecorderView } from '../../../shared/contract';
import { formatClock } from '../../results/format';
import { recordingTitle } from './recording-title';
import { elapsedSeconds } from '../../store/recording-states';
import { useAppStore } from '../../store/use-app-store';
import { LevelMeter } from '../level-meter/LevelMeter';
import { MicrophonePicker } from '../MicrophonePicker';
import { RecordingDetails } from '../RecordingDetails';
import { SHORTCUTS, useShortcut } from '../shortcuts';
import { useFocusOnArrival } from '../focus-on-arrival';
import { useWhileShown } from '../screen/use-while-shown';
import { useVisitPatientLine } from '../visit-patient';
import { CallSoundLine } from './CallSoundLine';
import { CancelVisit } from './CancelVisit';
import { TurnMicrophoneOn } from './TurnMicrophoneOn';

/** The state in one short line; the pause's own reason adds a sentence only where it says more. */
function stateWords(state: RecorderView['state'], pauseReason: RecorderView['pauseReason']): string {
  if (state === 'auto-paused') return 'Recording — paused while nobody speaks';
  if (state === 'paused') return pauseReason === 'manual' || !pauseReason ? 'Paused by you' : 'Paused';
  if (state === 'reconnecting') return 'Recording — reconnecting to the service';
  if (state === 'offline') return 'Recording — offline, audio kept on this computer';
  if (state === 'connecting') return 'Connecting…';
  return 'Recording';
}

/**
 * The visit being recorded (issue 17): its encounter and patient; a large running time; the state
 * in one short line (a red dot only while audio is being sent) and, in a telehealth visit, whether
 * the call's sound is recorded too (issue 30); the level meter (the microphone's, and the call's);
 * Pause, End and Cancel with their shortcuts. The same state and time are in the window title.
 */
export function RecordingPane() {
  const headingId = useId();
  // Narrow selectors: main reports the recorder every time the elapsed second or the backlog
  // changes, and this view only needs to redraw when the state or its reason changes.
  const state = useAppStore((s) => s.recorder?.state ?? 'idle');
  const reason = useAppStore((s) => s.recorder?.reason);
  const pauseReason = useAppStore((s) => s.recorder?.pauseReason);
  const notice = useAppStore((s) => s.recorder?.notice);
  const capture = useAppStore((s) => s.capture);
  const error = useAppStore((s) => s.recordingError);
  const rejoined = useAppStore((s) => s.recordingNotice);
  const end = useAppStore((s) => s.endRecording);
  const pause = useAppStore((s) => s.pauseRecording);
  const resume = useAppStore((s) => s.resumeRecording);
  // Whole minutes for the title: the seconds are VisitClock's alone, so this view does not render
  // again every second.
  const elapsedMinutes = useAppStore((s) => Math.floor(elapsedSeconds(s) / 60));
  // As the EHR prints it (History has it from Start), not as the service got it (issue 37).
  // Kept with the visit (issue 37); whole seconds, from half of one.
  const missingS = useAppStore((s) => Math.round((s.recorder?.missingAudioMs ?? 0) / 1_000));
  const encounterId = useAppStore(
    (s) =>
      s.history.find((entry) => entry.sessionId === s.recorder?.sessionId)?.shownAs ??
      s.recorder?.encounterId,
  );
  const sessionId = useAppStore((s) => s.recorder?.sessionId);
  // A rejoined recording waiting for a press (TurnMicrophoneOn) hears nothing: it does not say Recording.
  const microphoneOff = useAppStore((s) => s.pressNeededSince !== null);
  const sending = !microphoneOff && (state === 'streaming' || state === 'connecting');
  const pausedByYou = state === 'paused';
  // The state, in the taskbar too, with whole minutes: "● Recording 4 min — Ambient Scribe".
  useRecordingTitle(pausedByYou, elapsedMinutes);
  useShortcut(SHORTCUTS.pauseResume, true, () => void (pausedByYou ? resume() : pause()));
  useShortcut(SHORTCUTS.end, true, () => void end());
  const patientLine = useVisitPatientLine(sessionId);
  // Start is gone once pressed: the keyboard carries on from this visit's heading (issue 31).
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnArrival(heading);
  // The pause reasons the short line already says need no second sentence.
  const extra = pauseReason === 'manual' || pauseReason === 'no-speech' ? undefined : reason;

  return (
    <section className="card record recording" aria-labelledby={headingId}>
      <header className="visit-header">
        <h2 id={headingId} ref={heading} tabIndex={-1} data-testid="encounter-id">
          Encounter {encounterId}
        </h2>
        {patientLine && (
          <p className="muted" data-testid="recording-patient">
            {patientLine}
          </p>
        )}
      </header>
      <div className="clock-row">
        <span className="rec-dot" aria-hidden="true" data-sending={sending} />
        <VisitClock />
        <p className="record-state" role="status" data-testid="recorder-state" data-state={state}>
          {microphoneOff ? 'Microphone off' : stateWords(state, pauseReason)}
        </p>
      </div>
      <CallSoundLine />
      {extra && <p className="muted">{extra}</p>}
      <RecordingDetails />
      {capture && (
        <>
          <LevelMeter paused={pausedByYou} withVisitClock call={capture.call !== undefined} />
          <p className="muted" data-testid="microphone-name">
            Microphone: {capture.device?.label || 'system default'}
            {capture.voiceDetection === 'loading' && ' · starting voice detection…'}
          </p>
        </>
      )}
      <TurnMicrophoneOn />
      {rejoined && (
        <p className="warning" role="status" data-testid="rejoined-notice">
          {rejoined}
        </p>
      )}
      {missingS > 0 && (
        <p className="muted" role="status" data-testid="missing-audio">
          {missingS} s of the visit had no audio while the window reloaded; the note is written without it.
        </p>
      )}
      {notice && (
        <p className="warning" role="alert" data-testid="recording-notice">
          {notice}
        </p>
      )}
      {capture?.notice && capture.notice !== error && (
        <p className="warning" role="alert" data-testid="capture-notice">
          {capture.notice}
        </p>
      )}
      {capture?.voiceDetection === 'unavailable' && (
        <p className="warning" role="alert">
          Voice detection could not start, so the app records continuously. Nothing is lost.
        </p>
      )}
      {capture?.noSignal && (
        <p className="warning" role="alert" data-testid="no-signal">
          The microphone sends no sound. Check that it is not muted and is plugged in.
        </p>
      )}
      {capture?.state === 'stalled' && (
        <p className="warning" role="alert" data-testid="capture-stalled">
          The microphone stopped sending audio. Recording goes on as soon as it sends sound again.
        </p>
      )}
      {capture?.state === 'finishing' && (
        <p role="status" data-testid="capture-finishing">
          Saving the last words…
        </p>
      )}
      {error && (
        <p className="error" role="alert" data-testid="recording-error">
          {error}
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => void end()} aria-keyshortcuts={SHORTCUTS.end.aria}>
          End visit <kbd>{SHORTCUTS.end.label}</kbd>
        </button>
        <button
          type="button"
          className="link-button"
          onClick={() => void (pausedByYou ? resume() : pause())}
          aria-keyshortcuts={SHORTCUTS.pauseResume.aria}
        >
          {pausedByYou ? 'Resume' : 'Pause'} <kbd>{SHORTCUTS.pauseResume.label}</kbd>
        </button>
        <CancelVisit />
      </div>
      <div className="mic-row">
        <MicrophonePicker />
      </div>
    </section>
  );
}

/** The visit's running time, m:ss: the one part of the view that changes every second. */
function VisitClock() {
  // Stays as it was while the window is not seen (issue 40), and is right again the moment it is.
  const elapsedS = useWhileShown(elapsedSeconds);
  return (
    <time className="elapsed" data-testid="elapsed">
      {formatClock(elapsedS)}
    </time>
  );
}

/** While recording, the window title says so too: visible in the taskbar when the app is behind. */
function useRecordingTitle(pausedByYou: boolean, elapsedMinutes: number): void {
  useEffect(() => {
    const previous = document.title;
    document.title = recordingTitle(pausedByYou, elapsedMinutes, previous);
    return () => {
      document.title = previous;
    };
  }, [pausedByYou, elapsedMinutes]);
}
