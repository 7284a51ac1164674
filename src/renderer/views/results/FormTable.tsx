import { Fragment, useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import type { FilledField, FilledForm, TranscriptEntry } from '../../../shared/service';
import {
  entriesFor,
  evidenceText,
  fieldEdit,
  fieldKey,
  formText,
  serviceFieldValue,
  shownField,
  shownFieldText,
  valueText,
  type FieldValue,
} from '../../results/form-text';
import { useAppStore } from '../../store/use-app-store';
import '../note/note.css';
import { CopyButton } from './CopyButton';
import type { Highlight } from './highlight';
import './form-table.css';

interface Props {
  form: FilledForm;
  title: string;
  /** The visit: its note's draft holds the clinician's corrections of the form (issue 29). */
  sessionId: string | undefined;
  transcript: readonly TranscriptEntry[] | undefined;
  highlight: Highlight | null;
  onHighlight(next: Highlight): void;
  transcriptId: string | undefined;
}

/**
 * One filled form: what the service heard for each field, with its unit and the words it heard.
 * Each value and unit can be corrected in place (issue 29); Copy gives the form as corrected.
 */
export function FormTable(props: Props) {
  const captionId = useId();
  const { form, title, sessionId } = props;
  // The draft of this visit only: until it is loaded, nothing can be edited (an edit would be lost).
  const draft = useAppStore((s) =>
    sessionId !== undefined && s.noteDraft?.sessionId === sessionId ? s.noteDraft : null,
  );
  // Finished: it is in the EHR, and its edits have left this computer (Undo beside Copy all).
  const finished = useAppStore(
    (s) => s.history.find((e) => e.sessionId === sessionId)?.finishedAt !== undefined,
  );
  const readOnly = finished || draft === null;
  return (
    <div className="form-block">
      <div className="form-block-head">
        <CopyButton text={formText(form, title, draft?.fields)} what={title} />
      </div>
      {/* A wide table scrolls sideways on its own; the keyboard can reach it to scroll. */}
      <div className="table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className="form-table" data-testid={`form-${form.form_id}`}>
          <caption id={captionId}>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
              <th scope="col">Unit</th>
              <th scope="col">Evidence</th>
            </tr>
          </thead>
          <tbody>
            {form.fields.map((field) => (
              <FieldRow
                key={field.id}
                field={field}
                edit={draft?.fields[fieldKey(form, field)]}
                readOnly={readOnly}
                {...props}
              />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

interface RowProps extends Props {
  field: FilledField;
  /** The clinician's correction of this field, if any. */
  edit: FieldValue | undefined;
  readOnly: boolean;
}

/**
 * One field, editable in place like a note section, keyboard first: Edit (or a click on the value)
 * opens its value and unit; each keystroke is the clinician's edit (main keeps it sealed within a
 * second); Enter, Done or leaving the row closes it with the value kept; Escape closes it with the
 * value and unit as they were when it opened. Its evidence stays the service's.
 */
function FieldRow(props: RowProps) {
  const { form, field, edit, readOnly } = props;
  const id = useId();
  const key = fieldKey(form, field);
  const owner = `field:${form.form_id}:${field.id}`;
  const editField = useAppStore((s) => s.editField);
  const shown = shownField(form, field, edit ? { [key]: edit } : null);
  const [editing, setEditing] = useState(false);
  /**
   * What is in the boxes while the field is open, exactly as typed: the draft gets the edit, or
   * null when it is the service's value again, and a space typed after "No" must stay in the box.
   */
  const [typed, setTyped] = useState<FieldValue>(() => edit ?? serviceFieldValue(field));
  const [showOriginal, setShowOriginal] = useState(false);
  /** The correction when the editor opened (none: the service's value): Escape goes back to it. */
  const opened = useRef<FieldValue | undefined>(undefined);
  const valueInput = useRef<HTMLInputElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const evidence = entriesFor(field.evidence, props.transcript);

  useEffect(() => {
    if (!editing) return;
    // The value selected: a wrong number is replaced by typing the right one.
    valueInput.current?.focus();
    valueInput.current?.select();
  }, [editing]);

  const open = () => {
    if (readOnly) return;
    opened.current = edit;
    setTyped(edit ?? serviceFieldValue(field));
    setEditing(true);
  };
  const change = (next: Partial<FieldValue>) => {
    const now = { ...typed, ...next };
    setTyped(now);
    editField(key, fieldEdit(field, now));
  };
  const close = (keep: boolean) => {
    if (!keep) editField(key, opened.current ?? null);
    setEditing(false);
    // Back to where the keyboard was: the field's Edit button.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  // Escape anywhere in the editor goes back; Enter in either box keeps (Ctrl+Enter too, as in a section).
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close(false);
    } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      event.preventDefault();
      close(true);
    }
  };
  // Leaving the row (Tab past Cancel, a click elsewhere) keeps what is typed.
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (editing && !event.currentTarget.contains(event.relatedTarget as Node | null)) setEditing(false);
  };

  return (
    <tr data-edited={shown.edited} data-editing={editing} data-testid={`field-${field.id}`} onBlur={onBlur}>
      <th scope="row">
        {field.label}
        {shown.edited && (
          <span className="edited-badge" data-testid="field-edited">
            Edited
          </span>
        )}
      </th>
      {editing ? (
        // Value and unit side by side under their headings, Done and Cancel beneath them.
        <td colSpan={2} className="field-editor" onKeyDown={onKeyDown}>
          <span className="field-editor-inputs">
            <label className="visually-hidden" htmlFor={`${id}-value`}>
              {field.label} value
            </label>
            <input
              id={`${id}-value`}
              ref={valueInput}
              className="field-value-input"
              value={typed.value}
              autoComplete="off"
              onChange={(event) => change({ value: event.target.value })}
              data-testid="field-value-editor"
            />
            <label className="visually-hidden" htmlFor={`${id}-unit`}>
              {field.label} unit
            </label>
            <input
              id={`${id}-unit`}
              className="field-unit-input"
              value={typed.unit}
              autoComplete="off"
              onChange={(event) => change({ unit: event.target.value })}
              data-testid="field-unit-editor"
            />
          </span>
          <span className="field-editor-actions">
            <button type="button" onClick={() => close(true)}>
              Done <kbd>Enter</kbd>
            </button>
            <button type="button" className="link-button small" onClick={() => close(false)}>
              Cancel <kbd>Esc</kbd>
            </button>
          </span>
        </td>
      ) : (
        <>
          <td className="field-value">
            <span className="field-value-line">
              {/* A click on the value opens it too (the keyboard's way is the Edit button). */}
              <span
                className="field-value-text"
                data-readonly={readOnly}
                onClick={open}
                data-testid="field-value"
              >
                {shown.value === null ? (
                  // The evidence column says it in words (below); the form's Copy leaves it out.
                  <>
                    <span aria-hidden="true">—</span>
                    <span className="visually-hidden">not mentioned</span>
                  </>
                ) : (
                  shown.value
                )}
              </span>
              {!readOnly && (
                <button
                  type="button"
                  className="link-button small"
                  ref={editButton}
                  aria-label={`Edit ${field.label}`}
                  onClick={open}
                >
                  Edit
                </button>
              )}
            </span>
            {shown.edited && !readOnly && (
              <span className="field-edited-actions">
                <button
                  type="button"
                  className="link-button small"
                  aria-expanded={showOriginal}
                  aria-label={`Service’s value of ${field.label}`}
                  onClick={() => setShowOriginal((shownNow) => !shownNow)}
                >
                  Service’s value
                </button>
                <button
                  type="button"
                  className="link-button small"
                  aria-label={`Undo my edit of ${field.label}`}
                  onClick={() => {
                    setShowOriginal(false);
                    editField(key, null);
                  }}
                >
                  Undo my edit
                </button>
              </span>
            )}
            {shown.edited && showOriginal && !readOnly && (
              <span className="field-original" data-testid="field-original">
                The service’s value: {shownFieldText({ value: valueText(field.value), unit: field.unit })}
              </span>
            )}
          </td>
          <td className="field-unit" data-testid="field-unit">
            <BreakableUnit unit={shown.unit ?? ''} />
          </td>
        </>
      )}
      <td>
        {evidence.length > 0 ? (
          <div className="evidence">
            <ul>
              {evidence.map((entry) => (
                <li key={entry.transcript_id}>{evidenceText(entry)}</li>
              ))}
            </ul>
            {props.transcriptId && (
              <button
                type="button"
                className="link-button toggle small"
                aria-pressed={props.highlight?.owner === owner}
                aria-label={`Show evidence for ${field.label} in the transcript`}
                aria-controls={props.transcriptId}
                onClick={() => props.onHighlight({ owner, name: field.label, ids: field.evidence ?? [] })}
              >
                Show
              </button>
            )}
          </div>
        ) : shown.value === null ? (
          // Nothing found for it (issue 31): said quietly in the wide column, not beside its Edit.
          <span className="field-empty" data-testid="field-not-mentioned">
            Not mentioned
          </span>
        ) : (
          <span className="visually-hidden">none</span>
        )}
      </td>
    </tr>
  );
}

/** A unit that may wrap after a slash ("breaths/min") in its narrow column, never inside a word. */
function BreakableUnit({ unit }: { unit: string }) {
  return unit.split('/').map((part, index) => (
    <Fragment key={index}>
      {index > 0 && (
        <>
          /<wbr />
        </>
      )}
      {part}
    </Fragment>
  ));
}
