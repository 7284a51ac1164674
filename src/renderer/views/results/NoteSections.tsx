import { useEffect, useId, useState, type ReactNode } from 'react';
import type { SummarySection } from '../../../shared/service';
import { useAppStore } from '../../store/use-app-store';
import { EditableSection } from '../note/EditableSection';
import { FinishControl, UNDO_MS } from '../note/FinishControl';
import { FinishedNote } from '../note/FinishedNote';
import { editedNoteText, sectionKey } from '../note/note-edits';
import { itemTitle, noteGroups, type NoteItem } from '../../results/note-groups';
import { COPY_ALL_SHORTCUT } from '../shortcuts';
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
 * A SOAP or History and physical note stands under the headings clinicians expect (issue 31).
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
  const finishedAt = useAppStore((s) => s.history.find((e) => e.sessionId === sessionId)?.finishedAt);
  const finished = finishedAt !== undefined;
  // Past Undo the note is in the EHR: the service's original no longer poses as it (issue 37).
  const sealed = usePast(finishedAt === undefined ? undefined : finishedAt + UNDO_MS);
  if (finished && sealed) return <FinishedNote sections={sections} finishedAt={finishedAt} />;
  return (
    <section aria-labelledby={headingId}>
      <div className="note-section-head">
        <h3 id={headingId}>Note</h3>
        <span className="note-section-actions">
          <CopyButton
            text={editedNoteText(sections, draft, closingLines)}
            what="all of the note"
            visible="Copy all"
            shortcut={COPY_ALL_SHORTCUT}
          />
          {sessionId && <FinishControl sessionId={sessionId} />}
        </span>
      </div>
      {notice && (
        <p className="warning" role="alert" data-testid="note-notice">
          {notice}
        </p>
      )}
      {noteGroups(sections).flatMap((group) => {
        const shown = (item: NoteItem, place: 'section' | 'heading' | 'under-heading') => (
          <EditableSection
            key={sectionKey(item.index, item.section)}
            editKey={sectionKey(item.index, item.section)}
            section={item.section}
            title={itemTitle(group, item)}
            place={place}
            highlight={highlight}
            onHighlight={onHighlight}
            transcriptId={transcriptId}
            readOnly={finished}
          />
        );
        // Sections that stand alone, or a heading's only section, under the heading's name.
        if (group.heading === undefined) return group.items.map((item) => shown(item, 'section'));
        if (group.items.length === 1) return [shown(group.items[0]!, 'heading')];
        return [
          <NoteHeadingGroup key={group.heading} heading={group.heading}>
            {group.items.map((item) => shown(item, 'under-heading'))}
          </NoteHeadingGroup>,
        ];
      })}
    </section>
  );
}

/** Whether the clock has passed `at` (false until then, re-rendering when it does). */
function usePast(at: number | undefined): boolean {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === undefined) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, at - Date.now()));
    return () => clearTimeout(timer);
  }, [at]);
  return at !== undefined && now >= at;
}

/** A heading ("Subjective") over the sections the template puts under it. */
function NoteHeadingGroup({ heading, children }: { heading: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="note-group" aria-labelledby={id} data-testid="note-group">
      <h4 id={id} className="note-heading">
        {heading}
      </h4>
      {children}
    </section>
  );
}
