import { useId } from 'react';
import type { RecorderView } from '../../shared/contract';
import { useAppStore } from '../store/use-app-store';
import { LevelMeter } from './LevelMeter';
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

const RECORDING_STATES = new Set<RecorderView['state']>([
  'connecting',
  'streaming',
  'auto-paused',
  'paused',
  'reconnecting',
  'offline',
]);

/**
 * The recording screen as far as issue 5 goes: start a visit, see the microphone working (level,
 * speech, device, warnings), end the visit. Issue 6 adds the encounter picker and the results.
 */
export function RecordView() {
  const headingId = useId();
  // Narrow selectors: main reports the recorder ten times a second (elapsed time, backlog), and
  // this view only needs to redraw when the state or its reason changes.
  const state = useAppStore((s) => s.recorder?.state ?? 'idle');
  const reason = useAppStore((s) => s.recorder?.reason);
  const capture = useAppStore((s) => s.capture);
  const error = useAppStore((s) => s.recordingError);
  const start = useAppStore((s) => s.startRecording);
  const end = useAppStore((s) => s.endRecording);
  const recording = RECORDING_STATES.has(state);

  return (
    <section className="card record" aria-labelledby={headingId}>
      <h2 id={headingId}>Visit</h2>
      <p className="record-state" role="status" data-testid="recorder-state" data-state={state}>
        {STATE_WORDS[state]}
        {reason ? ` — ${reason}` : ''}
      </p>
      <MicrophonePicker />
      {recording && capture && (
        <>
          <LevelMeter />
          <p className="muted" data-testid="microphone-name">
            Microphone: {capture.device?.label || 'system default'}
            {capture.voiceDetection === 'loading' && ' · starting voice detection…'}
          </p>
        </>
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
          <button type="button" onClick={() => void end()}>
            End visit
          </button>
        ) : (
          <button type="button" onClick={() => void start()} disabled={state === 'ending'}>
            Start recording
          </button>
        )}
      </div>
    </section>
  );
}
