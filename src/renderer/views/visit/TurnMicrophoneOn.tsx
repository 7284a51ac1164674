import { useEffect, useRef } from 'react';
import { useAppStore } from '../../store/use-app-store';
import { useNow } from '../use-now';

/**
 * After a reload mid-visit a browser may let the audio start again only after a press on the page
 * (its autoplay rule; the desktop app has none): one line that says so, how long the visit has had
 * no audio, and one button (issue 37). The button takes the focus, so Enter or Space turns the
 * microphone on too. The gap is kept with the visit once the audio is back (missingAudioMs).
 */
export function TurnMicrophoneOn() {
  const since = useAppStore((s) => s.pressNeededSince);
  const turnOn = useAppStore((s) => s.turnMicrophoneOn);
  const now = useNow(since !== null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (since !== null) button.current?.focus();
  }, [since]);
  if (since === null) return null;
  // The audio stopped with the page before this one: this page's start is when the gap began.
  const silentS = Math.max(0, Math.round((Math.max(now, since) - performance.timeOrigin) / 1_000));
  return (
    <p className="warning" role="alert" data-testid="press-to-record">
      The window reloaded and the microphone is off: no audio for {silentS} s.{' '}
      <button type="button" ref={button} onClick={() => void turnOn()}>
        Turn the microphone on
      </button>
    </p>
  );
}
