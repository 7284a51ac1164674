import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import type { SummarySection, TranscriptEntry } from '../../../shared/service';
import { sectionText } from '../../results/format';
import { useAppStore } from '../../store/use-app-store';
import { countLabel } from '../../verify';
import { CheckPanel } from '../check/CheckPanel';
import { MarkedText, type SectionMark } from '../check/MarkedText';
import { CopyButton } from '../results/CopyButton';
import type { Highlight } from '../results/highlight';
import './note.css';

interface Props {
  section: SummarySection;
  /** Its title where it stands: its own, or its heading's when it is the heading's only section. */
  title: string;
  /**
   * Where it stands: alone ('section', the Standard note), as a heading's only section ('heading':
   * "Assessment", titled and styled as the heading), or under a heading ('under-heading', an h5).
   */
  place: 'section' | 'heading' | 'under-heading';
  /** sectionKey(): where the clinician's edit of this section is kept. */
  editKey: string;
  highlight: Highlight | null;
  onHighlight(next: Highlight): void;
  transcriptId: string | undefined;
  /** The visit is finished: its note is in the EHR and no longer edited here. */
  readOnly?: boolean;
  /** The values the check flagged in the text shown (issue 38); none without a transcript. */
  marks?: readonly SectionMark[];
  /** The transcript lines the section was checked against, for an open flag. */
  checkedAgainst?: readonly TranscriptEntry[];
}

/**
 * One note section, editable in place (issue 29), keyboard first: Edit (or a click on the text)
 * opens it; each keystroke is the clinician's edit (main keeps it sealed within a second);
 * Ctrl+Enter, Done or leaving the section closes it with the text kept; Escape closes it with the
 * text as it was when it opened. A changed section says "Edited", can show the service's text
 * beside it, and "Undo my edits" goes back to the service's.
 */
export function EditableSection({
  section,
  title,
  place,
  editKey,
  highlight,
  onHighlight,
  transcriptId,
  readOnly,
  marks = [],
  checkedAgainst = [],
}: Props) {
  const id = useId();
  const markChecked = useAppStore((s) => s.markChecked);
  const [openMark, setOpenMark] = useState<string | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  const shownMarks = readOnly ? [] : marks;
  const toCheck = shownMarks.filter((mark) => !mark.checked).length;
  // An open flag that an edit made right is gone, and its panel with it.
  const opened = shownMarks.find((mark) => mark.key === openMark);
  const closeCheck = () => {
    const key = openMark;
    setOpenMark(null);
    requestAnimationFrame(() =>
      sectionRef.current?.querySelector<HTMLElement>(`[data-check-key="${CSS.escape(key ?? '')}"]`)?.focus(),
    );
  };
  // The service's text; none where it found nothing (its editor opens empty, to be written in).
  const original = sectionText(section);
  const edit = useAppStore((s) => s.noteDraft?.sections[editKey]);
  const editSection = useAppStore((s) => s.editSection);
  const text = edit !== undefined ? edit : original;
  const edited = edit !== undefined && edit.trim() !== original;
  // Nothing to paste (issue 31): said quietly, and no Copy; Copy all leaves it out too.
  const empty = text.trim() === '';
  const Heading = place === 'under-heading' ? 'h5' : 'h4';
  const [editing, setEditing] = useState(false);
  const [showOriginal, setShowOriginal] = useState(false);
  /** The text when the editor opened: Escape goes back to it. */
  const textWhenOpened = useRef<string | undefined>(undefined);
  const area = useRef<HTMLTextAreaElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const sources = section.source_transcripts ?? [];
  const pressed = highlight?.owner === `section:${editKey}`;

  useEffect(() => {
    if (!editing) return;
    const element = area.current;
    element?.focus();
    // The caret at the end, where a clinician adds what the note missed.
    element?.setSelectionRange(element.value.length, element.value.length);
  }, [editing]);

  const open = () => {
    if (readOnly) return;
    textWhenOpened.current = edit;
    setEditing(true);
  };
  // Exactly the service's text is no edit; a space typed after it is kept (the next word follows).
  const change = (next: string) => editSection(editKey, next === original ? null : next);
  const close = (keep: boolean) => {
    if (!keep) editSection(editKey, textWhenOpened.current ?? null);
    setEditing(false);
    // Back to where the keyboard was: the section's Edit button.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close(false);
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      close(true);
    }
  };
  // Leaving the section (Tab, a click elsewhere) keeps what is typed.
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (editing && !event.currentTarget.contains(event.relatedTarget as Node | null)) setEditing(false);
  };

  // A click on the text opens it too (the keyboard's way is the Edit button).
  const shownText = (
    <p className="section-text" onClick={open} data-testid="section-text">
      {empty ? (
        <span className="section-empty">{edited ? 'Left empty' : 'Nothing found in the conversation'}</span>
      ) : shownMarks.length > 0 ? (
        <MarkedText
          text={text}
          marks={shownMarks}
          open={opened ? opened.key : null}
          onOpen={setOpenMark}
          panelId={`${id}-check`}
        />
      ) : (
        text
      )}
    </p>
  );

  return (
    <section
      ref={sectionRef}
      className="note-section"
      aria-labelledby={id}
      data-edited={edited}
      data-editing={editing}
      data-empty={empty}
      data-place={place}
      data-testid="note-section"
      onBlur={onBlur}
    >
      <div className="note-section-head">
        <Heading id={id} className={place === 'heading' ? 'note-heading' : undefined}>
          {title}
          {toCheck > 0 && (
            <span className="check-count" data-testid="check-count">
              {countLabel(toCheck)}
            </span>
          )}
          {edited && (
            <span className="edited-badge" data-testid="edited-badge">
              Edited
            </span>
          )}
        </Heading>
        {/* Nothing to read: said on the heading's line, so an empty section takes one line. */}
        {empty && !editing && shownText}
        <span className="note-section-actions">
          {sources.length > 0 && transcriptId && !editing && (
            <button
              type="button"
              className="link-button small toggle"
              aria-pressed={pressed}
              aria-label={`Show source of ${title}`}
              aria-controls={transcriptId}
              onClick={() => onHighlight({ owner: `section:${editKey}`, name: title, ids: sources })}
            >
              Show source
            </button>
          )}
          {!editing && !readOnly && (
            <button
              type="button"
              className="link-button small"
              ref={editButton}
              aria-label={`Edit ${title}`}
              onClick={open}
            >
              Edit
            </button>
          )}
          {!editing && !empty && <CopyButton text={edited ? text.trim() : original} what={title} small />}
        </span>
      </div>
      {editing ? (
        <div className="section-editor">
          <label className="visually-hidden" htmlFor={`${id}-text`}>
            {title}, as you want it in the EHR
          </label>
          <textarea
            id={`${id}-text`}
            ref={area}
            value={text}
            rows={Math.min(16, Math.max(3, text.split('\n').length + 1))}
            onChange={(event) => change(event.target.value)}
            onKeyDown={onKeyDown}
            data-testid="section-editor"
          />
          <p className="section-editor-actions">
            <button type="button" onClick={() => close(true)}>
              Done <kbd>Ctrl+Enter</kbd>
            </button>
            <button type="button" className="link-button" onClick={() => close(false)}>
              Cancel <kbd>Esc</kbd>
            </button>
          </p>
        </div>
      ) : (
        !empty && shownText
      )}
      {opened && !editing && (
        <CheckPanel
          key={opened.key}
          id={`${id}-check`}
          mark={opened}
          lines={checkedAgainst}
          onChecked={(checked) => markChecked(editKey, opened.key, checked)}
          onClose={closeCheck}
        />
      )}
      {edited && !editing && !readOnly && (
        <p className="edited-actions">
          <button
            type="button"
            className="link-button small"
            aria-expanded={showOriginal}
            onClick={() => setShowOriginal((shown) => !shown)}
          >
            {showOriginal ? 'Hide the service’s text' : 'Show the service’s text'}
          </button>
          <button
            type="button"
            className="link-button small"
            aria-label={`Undo my edits of ${title}`}
            onClick={() => {
              setShowOriginal(false);
              editSection(editKey, null);
            }}
          >
            Undo my edits
          </button>
        </p>
      )}
      {edited && showOriginal && !editing && (
        <blockquote className="section-original" data-testid="section-original">
          <span className="visually-hidden">The service’s text: </span>
          {original || <span className="section-empty">Nothing found in the conversation</span>}
        </blockquote>
      )}
    </section>
  );
}
