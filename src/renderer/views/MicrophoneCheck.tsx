import { useEffect } from 'react';
import { useAppStore } from '../store/use-app-store';
import { LevelMeter } from './level-meter/LevelMeter';

/**
 * Before the visit: "is the microphone hearing me?" The chosen microphone opens as recording will
 * open it and its level shows; nothing is recorded. It closes when the view goes or Start is pressed.
 */
export function MicrophoneCheck() {
  const check = useAppStore((s) => s.micCheck);
  const start = useAppStore((s) => s.startMicCheck);
  const stop = useAppStore((s) => s.stopMicCheck);
  useEffect(() => () => void stop(), [stop]);
  const on = check.state === 'on' || check.state === 'starting';

  return (
    <div className="mic-check" data-testid="mic-check">
      <button type="button" className="link-button" onClick={() => void (on ? stop() : start())}>
        {on ? 'Stop the microphone check' : 'Check the microphone'}
      </button>
      {check.state === 'on' && (
        <>
          <LevelMeter showSpeech={false} />
          <p className="muted" data-testid="mic-check-device">
            Listening to {check.device.label || 'the system default'}. Speak: the bar should move. Nothing is
            recorded.
          </p>
          {check.notice && (
            <p className="warning" role="alert">
              {check.notice}
            </p>
          )}
        </>
      )}
      {check.state === 'failed' && (
        <p className="error" role="alert">
          {check.problem}
        </p>
      )}
    </div>
  );
}
