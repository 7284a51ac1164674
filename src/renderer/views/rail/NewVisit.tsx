import { useEffect, useRef, useState } from 'react';
import { RECORDING_STATES } from '../../store/recording-states';
import { useAppStore } from '../../store/use-app-store';
import { SHORTCUTS, useShortcut } from '../shortcuts';
import './new-visit.css';

/**
 * New visit, at the top of the rail, with its shortcut (issue 31). On a note, it leaves the note
 * for the next visit's details. On the ready screen, it clears what was typed there (the
 * encounter, the patient, the consent; the clinician's specialty, template and forms stay), asking
 * first when anything of a patient was typed: pressed again (or Clear), it clears; Escape or Keep
 * leaves them. Never while a visit records.
 */
export function NewVisit({ showsNote }: { showsNote: boolean }) {
  const recording = useAppStore(
    (s) => RECORDING_STATES.has(s.recorder?.state ?? 'idle') || s.openingMicrophone,
  );
  const typed = useAppStore((s) => s.patientDetailsTyped);
  const clearResults = useAppStore((s) => s.clearResults);
  const clearVisitDetails = useAppStore((s) => s.clearVisitDetails);
  const draft = useAppStore((s) => s.draft);
  // The details the question is about: a visit started, a note opened or the details changed
  // meanwhile answer it, and it is not asked again later about other details.
  const [askedAbout, setAskedAbout] = useState<typeof draft>(null);
  const button = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const confirming = askedAbout !== null && askedAbout === draft && !recording && !showsNote;

  const clear = () => {
    setAskedAbout(null);
    clearVisitDetails();
  };
  const answered = (clearThem: boolean) => {
    if (clearThem) clear();
    else setAskedAbout(null);
    button.current?.focus();
  };
  const press = () => {
    if (recording) return;
    if (showsNote) clearResults();
    else if (confirming) answered(true);
    else if (!typed) clear();
    else setAskedAbout(draft);
  };
  useShortcut(SHORTCUTS.newVisit, !recording, press);
  // The question takes the focus on its safe answer; once answered, the focus is back on New visit.
  useEffect(() => {
    if (confirming) keep.current?.focus();
  }, [confirming]);

  return (
    <>
      <button
        ref={button}
        type="button"
        className="new-visit"
        disabled={recording}
        onClick={press}
        aria-keyshortcuts={SHORTCUTS.newVisit.aria}
        data-testid="new-visit"
      >
        New visit <kbd>{SHORTCUTS.newVisit.label}</kbd>
      </button>
      {confirming && (
        <div
          className="confirm new-visit-confirm"
          role="group"
          aria-label="Clear the details typed for this visit?"
          data-testid="new-visit-confirm"
          onKeyDown={(event) => {
            if (event.key === 'Escape') answered(false);
          }}
        >
          <span>Clear the details typed for this visit?</span>
          <span className="confirm-buttons">
            <button type="button" className="danger-button" onClick={() => answered(true)}>
              Clear them
            </button>
            <button ref={keep} type="button" className="link-button" onClick={() => answered(false)}>
              Keep them
            </button>
          </span>
        </div>
      )}
    </>
  );
}
