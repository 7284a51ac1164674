import { useId } from 'react';
import type { SummarySection } from '../../../shared/service';
import { useAppStore } from '../../store/use-app-store';
import { EditableSection } from '../note/EditableSection';
import { FinishControl } from '../note/FinishControl';
import { editedNoteText, sectionKey } from '../note/note-edits';
import { CopyButton } from './CopyButton';
import type { Highlight } from './highlight';

interface Props {
  sessionId: string | undefined;
  sections: readonly SummarySection[];
  highlight: Highlight | null;
  onHighlight(next: Highlight): void;
  /** The transcript list the Show source buttons light up. */
  transcriptId: string | undefined;
  /** Lines after the sections in Copy all (the patient's consent, issue 29). */
  closingLines?: readonly string[];
}

/**
 * The note by section, each editable in place and ready to copy into its EHR field as the
 * clinician left it, each able to show where it came from; Copy all and "In the EHR" at the top.
 */
export function NoteSections({
  sessionId,
  sections,
  highlight,
  onHighlight,
  transcriptId,
  closingLines,
}: Props) {
  const headingId = useId();
  const draft = useAppStore((s) => (s.noteDraft?.sessionId === sessionId ? s.noteDraft : null));
  const notice = useAppStore((s) => s.noteNotice);
  // Finished: the edits left this computer with it; Undo (beside Copy all) makes it editable again.
  const finished = useAppStore(
    (s) => s.history.find((e) => e.sessionId === sessionId)?.finishedAt !== undefined,
  );
  return (
    <section aria-labelledby={headingId}>
      <div className="note-section-head">
        <h3 id={headingId}>Note</h3>
        <span className="note-section-actions">
          <CopyButton
            text={editedNoteText(sections, draft, closingLines)}
            label="Copy all of the note"
            visible="Copy all"
          />
          {sessionId && <FinishControl sessionId={sessionId} />}
        </span>
      </div>
      {notice && (
        <p className="warning" role="alert" data-testid="note-notice">
          {notice}
        </p>
      )}
      {sections.map((section, index) => (
        <EditableSection
          key={sectionKey(index, section)}
          editKey={sectionKey(index, section)}
          section={section}
          highlight={highlight}
          onHighlight={onHighlight}
          transcriptId={transcriptId}
          readOnly={finished}
        />
      ))}
    </section>
  );
}
