import { useEffect, useRef, useState } from 'react';
import { useAppStore } from '../../store/use-app-store';

/** How long Undo is offered after "Finished" (main keeps the edits in memory as long). */
export const UNDO_MS = 10_000;

/**
 * "In the EHR" (issue 29): the clinician marks the visit finished once its note is in the EHR.
 * Its edits leave this computer at once; Undo, for a few seconds, brings them back. The rail and
 * the top bar count what is still to finish.
 */
export function FinishControl({ sessionId }: { sessionId: string }) {
  const finishedAt = useAppStore((s) => s.history.find((e) => e.sessionId === sessionId)?.finishedAt);
  const finish = useAppStore((s) => s.finishNote);
  const unfinish = useAppStore((s) => s.unfinishNote);
  const [undoUntil, setUndoUntil] = useState<number | null>(null);
  useEffect(() => {
    if (undoUntil === null) return;
    const timer = setTimeout(() => setUndoUntil(null), Math.max(0, undoUntil - Date.now()));
    return () => clearTimeout(timer);
  }, [undoUntil]);
  // Each press replaces its own button (issue 37: the focus fell to the page and the next key was
  // lost): Finished leaves the focus on what it produced, the status with Undo; Undo on Finished.
  const [focusAfter, setFocusAfter] = useState<'status' | 'finish' | null>(null);
  const status = useRef<HTMLSpanElement>(null);
  const finishButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusAfter === 'status' && status.current) status.current.focus();
    else if (focusAfter === 'finish' && finishButton.current) finishButton.current.focus();
    else return;
    setFocusAfter(null);
  }, [focusAfter, finishedAt]);

  if (finishedAt === undefined)
    return (
      <button
        type="button"
        className="finish-button"
        data-testid="mark-finished"
        ref={finishButton}
        onClick={() =>
          void finish(sessionId).then((done) => {
            if (!done) return;
            setUndoUntil(Date.now() + UNDO_MS);
            setFocusAfter('status');
          })
        }
      >
        Finished: it is in the EHR
      </button>
    );
  return (
    <span className="finished" role="status" data-testid="finished-state" tabIndex={-1} ref={status}>
      ✓ Finished
      {undoUntil !== null && (
        <button
          type="button"
          className="link-button small"
          onClick={() =>
            void unfinish(sessionId).then(() => {
              setUndoUntil(null);
              setFocusAfter('finish');
            })
          }
        >
          Undo
        </button>
      )}
    </span>
  );
}
