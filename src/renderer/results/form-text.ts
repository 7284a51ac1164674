import type { FilledField, FilledForm, FormTemplate, TranscriptEntry } from '../../shared/service';
import { formatOffset } from './format';

/** A form's name as people read it: the template's title when known, else what the service sent. */
export function formTitle(form: FilledForm, templates: readonly FormTemplate[] = []): string {
  const template = templates.find((t) => t.form_template_id === (form.form_template_id ?? form.form_id));
  return template?.title ?? form.form_template_id ?? form.form_id;
}

/** A field's value in words; null means the visit never settled it. */
export function valueText(value: FilledField['value']): string | null {
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return String(value);
}

/** "98 %" reads oddly in a chart: units that are a ratio or percent sit against the number. */
export function withUnit(value: string, unit: string | undefined): string {
  if (!unit) return value;
  return /^[/%]/.test(unit) ? `${value}${unit}` : `${value} ${unit}`;
}

/** A field's value and unit as text: what the clinician corrects (issue 29), kept in the note's draft. */
export interface FieldValue {
  value: string;
  unit: string;
}

/** The clinician's corrections of a visit's filled fields, by fieldKey() (the draft's `fields`). */
export type FieldEdits = Readonly<Record<string, FieldValue>>;

/** Where the clinician's correction of a field is kept: `formId/fieldId`, so it never lands on another form's field. */
export function fieldKey(form: Pick<FilledForm, 'form_id'>, field: Pick<FilledField, 'id'>): string {
  return `${form.form_id}/${field.id}`;
}

/** The service's value and unit as text, as the editor opens on them (a field never mentioned is blank). */
export function serviceFieldValue(field: FilledField): FieldValue {
  return { value: valueText(field.value) ?? '', unit: field.unit ?? '' };
}

/**
 * The edit to keep for what the clinician typed, as typed; null when it is the service's value and
 * unit again (around spaces aside), which is no edit at all.
 */
export function fieldEdit(field: FilledField, typed: FieldValue): FieldValue | null {
  const service = serviceFieldValue(field);
  const same = typed.value.trim() === service.value.trim() && typed.unit.trim() === service.unit.trim();
  return same ? null : typed;
}

/** A field as the clinician left it. A null value is one nobody settled: "not mentioned". */
export interface ShownField {
  value: string | null;
  unit: string | undefined;
  /** The clinician changed the service's value or unit. */
  edited: boolean;
}

/** The field as the clinician left it: their value and unit when they changed it, else the service's. */
export function shownField(
  form: Pick<FilledForm, 'form_id'>,
  field: FilledField,
  edits: FieldEdits | null | undefined,
): ShownField {
  const edit = edits?.[fieldKey(form, field)];
  if (!edit || fieldEdit(field, edit) === null) {
    // A blank the service sent says no more than a null: nothing was found.
    const value = valueText(field.value);
    return { value: value?.trim() === '' ? null : value, unit: field.unit, edited: false };
  }
  // A value the clinician emptied is no longer known: it reads "not mentioned", never as a blank.
  const value = edit.value.trim();
  return { value: value === '' ? null : value, unit: edit.unit.trim() || undefined, edited: true };
}

/** "72 bpm", "98%", or "not mentioned", so nobody reads a blank as zero or normal. */
export function shownFieldText(shown: Pick<ShownField, 'value' | 'unit'>): string {
  return shown.value === null ? 'not mentioned' : withUnit(shown.value, shown.unit);
}

/**
 * A filled form as plain text for an EHR: the title, then one "Label: value unit" line per field,
 * with the clinician's corrections (issue 29) over the service's values. A field the visit did not
 * mention, or the clinician emptied, is left out (issue 31): six "not mentioned" lines are filler
 * in the EHR, and a line that is not there is never read as zero or normal.
 */
export function formText(form: FilledForm, title: string, edits?: FieldEdits | null): string {
  const lines = form.fields.flatMap((field) => {
    const shown = shownField(form, field, edits);
    return shown.value === null ? [] : [`${field.label}: ${shownFieldText(shown)}`];
  });
  return [title, ...lines].join('\n');
}

/** The transcript sentences a field or note section came from, in transcript order. */
export function entriesFor(
  ids: readonly string[] | undefined,
  transcript: readonly TranscriptEntry[] | undefined,
): TranscriptEntry[] {
  if (!ids?.length || !transcript) return [];
  const wanted = new Set(ids);
  return transcript.filter((entry) => wanted.has(entry.transcript_id));
}

/** Evidence as a clinician checks it: when it was said, and what. */
export function evidenceText(entry: TranscriptEntry): string {
  return `${formatOffset(entry.start_offset)} “${entry.transcript.trim()}”`;
}
