import { useEffect, useRef, useState } from 'react';
import { useAppStore } from '../../store/use-app-store';

/**
 * Cancel… asks before the visit is discarded. The question stands on a line of its own under End
 * and Pause, its two answers side by side (issue 31: wrapped in the row, they were jumbled), and
 * takes the focus on its safe answer, Keep recording; Escape answers it too.
 */
export function CancelVisit() {
  const cancel = useAppStore((s) => s.cancelRecording);
  const [confirming, setConfirming] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  const ask = useRef<HTMLButtonElement>(null);
  // Where the focus goes after an answer: none on the first render, Cancel… after Keep recording.
  const answered = useRef(false);
  useEffect(() => {
    if (confirming) keep.current?.focus();
    else if (answered.current) ask.current?.focus();
  }, [confirming]);
  const keepRecording = () => {
    answered.current = true;
    setConfirming(false);
  };

  if (!confirming)
    return (
      <button ref={ask} type="button" className="link-button" onClick={() => setConfirming(true)}>
        Cancel…
      </button>
    );
  return (
    <div
      className="confirm cancel-confirm"
      role="group"
      aria-label="Discard this visit?"
      data-testid="cancel-confirm"
      onKeyDown={(event) => {
        if (event.key === 'Escape') keepRecording();
      }}
    >
      <span>Discard this visit? Nothing of it will be kept.</span>
      <span className="confirm-buttons">
        <button
          type="button"
          className="danger-button"
          onClick={() => {
            setConfirming(false);
            void cancel();
          }}
        >
          Discard
        </button>
        <button ref={keep} type="button" className="link-button" onClick={keepRecording}>
          Keep recording
        </button>
      </span>
    </div>
  );
}
