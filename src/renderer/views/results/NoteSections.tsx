import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import type { NoteDraft } from '../../../shared/contract/notes';
import type { SummarySection, TranscriptEntry } from '../../../shared/service';
import { sectionText } from '../../results/format';
import { useAppStore } from '../../store/use-app-store';
import { checkKeys, checkNote, countLabel, linesToCheck } from '../../verify';
import type { SectionMark } from '../check/MarkedText';
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
  /** The transcript on the visit's clock: what each section is checked against (issue 38). */
  transcript?: readonly TranscriptEntry[];
}

/** Each section's check, by section key: its flags as marks, and the lines it was checked against. */
type SectionChecks = Map<string, { marks: SectionMark[]; checkedAgainst: readonly TranscriptEntry[] }>;

/**
 * The check over the note as it is shown (the service's text, or the clinician's edit of it), and
 * which of its flags the clinician marked Checked. Pure and fast (≤ 50 ms for a 60-minute visit's
 * note, docs/note-check.md), so it runs again with each edit.
 */
function checkShownNote(
  sections: readonly SummarySection[],
  draft: NoteDraft | null,
  transcript: readonly TranscriptEntry[],
): SectionChecks {
  const shown = sections.map((section, index) => {
    const key = sectionKey(index, section);
    const edit = draft?.sections[key];
    return { key, content: edit ?? sectionText(section), source_transcripts: section.source_transcripts };
  });
  const flags = checkNote(shown, transcript);
  return new Map(
    shown.map((section, index) => {
      const found = flags[index]!;
      const keys = checkKeys(found);
      const checked = new Set(draft?.checked?.[section.key] ?? []);
      const marks = found.map((flag, k) => ({ flag, key: keys[k]!, checked: checked.has(keys[k]!) }));
      return [section.key, { marks, checkedAgainst: linesToCheck(section.source_transcripts, transcript) }];
    }),
  );
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
  transcript,
}: Props) {
  const headingId = useId();
  const draft = useAppStore((s) => (s.noteDraft?.sessionId === sessionId ? s.noteDraft : null));
  const notice = useAppStore((s) => s.noteNotice);
  // Finished: the edits left this computer with it; Undo (beside Copy all) makes it editable again.
  const finishedAt = useAppStore((s) => s.history.find((e) => e.sessionId === sessionId)?.finishedAt);
  const finished = finishedAt !== undefined;
  // Past Undo the note is in the EHR: the service's original no longer poses as it (issue 37).
  const sealed = usePast(finishedAt === undefined ? undefined : finishedAt + UNDO_MS);
  const checks = useMemo(
    () => (transcript && !finished ? checkShownNote(sections, draft, transcript) : undefined),
    [sections, draft, transcript, finished],
  );
  const toCheck = [...(checks?.values() ?? [])].reduce(
    (sum, { marks }) => sum + marks.filter((mark) => !mark.checked).length,
    0,
  );
  if (finished && sealed) return <FinishedNote sections={sections} finishedAt={finishedAt} />;
  return (
    <section aria-labelledby={headingId}>
      <div className="note-section-head">
        <h3 id={headingId}>
          Note
          {toCheck > 0 && (
            <span className="check-count" data-testid="check-total">
              {countLabel(toCheck)}
            </span>
          )}
        </h3>
        <span className="note-section-actions">
          <CopyButton
            text={editedNoteText(sections, draft, closingLines)}
            what="all of the note"
            visible="Copy all"
            shortcut={COPY_ALL_SHORTCUT}
          />
          {sessionId && <FinishControl sessionId={sessionId} toCheck={toCheck} />}
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
            {...(checks?.get(sectionKey(item.index, item.section)) ?? {})}
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
