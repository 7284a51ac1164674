import { useEffect, useRef, useState } from 'react';
import { useAppStore } from '../../store/use-app-store';

/** How long Undo is offered after "Finished" (main keeps the edits in memory as long). */
export const UNDO_MS = 10_000;

/** The first value of the note still to check (issue 38): where "Check first" takes the keyboard. */
const focusFirstToCheck = () =>
  requestAnimationFrame(() =>
    document.querySelector<HTMLElement>('[data-testid="check-mark"][data-checked="false"]')?.focus(),
  );

const valuesLeft = (n: number) => (n === 1 ? '1 value is still to check' : `${n} values are still to check`);

/**
 * "In the EHR" (issue 29): the clinician marks the visit finished once its note is in the EHR.
 * Its edits leave this computer at once; Undo, for a few seconds, brings them back. The rail and
 * the top bar count what is still to finish. With values the check flagged and nobody checked
 * (`toCheck`), Finished asks once, naming the count, or is refused until none is left, as the
 * setting checksBeforeFinish says (issue 38).
 */
export function FinishControl({ sessionId, toCheck = 0 }: { sessionId: string; toCheck?: number }) {
  const checks = useAppStore((s) => s.settings?.checksBeforeFinish ?? 'ask');
  /** Finished was pressed with values left: 'asking' (ask) or 'refused' (required). */
  const [held, setHeld] = useState<'asking' | 'refused' | null>(null);
  const anyway = useRef<HTMLButtonElement>(null);
  // Asked, the keyboard is on the answer: Enter finishes, Tab reaches "Check first".
  useEffect(() => {
    if (held === 'asking') anyway.current?.focus();
  }, [held]);
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

  const finishNow = () =>
    void finish(sessionId).then((done) => {
      setHeld(null);
      if (!done) return;
      setUndoUntil(Date.now() + UNDO_MS);
      setFocusAfter('status');
    });
  const press = () => {
    if (toCheck > 0 && checks === 'required') {
      setHeld('refused');
      focusFirstToCheck();
    } else if (toCheck > 0 && checks === 'ask') setHeld('asking');
    else finishNow();
  };

  if (finishedAt === undefined && held === 'asking' && toCheck > 0)
    return (
      <span
        className="finish-ask"
        role="group"
        aria-label="Finish with values to check?"
        data-testid="finish-ask"
      >
        {valuesLeft(toCheck)}.{' '}
        <button type="button" ref={anyway} onClick={finishNow}>
          Finished anyway
        </button>
        <button
          type="button"
          className="link-button small"
          onClick={() => {
            setHeld(null);
            focusFirstToCheck();
          }}
        >
          Check first
        </button>
      </span>
    );
  if (finishedAt === undefined)
    return (
      <span className="finish-control">
        <button
          type="button"
          className="finish-button"
          data-testid="mark-finished"
          ref={finishButton}
          onClick={press}
        >
          Finished: it is in the EHR
        </button>
        {held === 'refused' && toCheck > 0 && (
          <span className="warning" role="alert" data-testid="finish-refused">
            {valuesLeft(toCheck)}: edit {toCheck === 1 ? 'it' : 'each'} to what was said, or mark it Checked.
          </span>
        )}
      </span>
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
