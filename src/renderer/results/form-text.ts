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

/**
 * A filled form as plain text for an EHR: the title, then one "Label: value unit" line per field.
 * Fields the visit did not mention say so, so nobody reads a blank as zero or normal.
 */
export function formText(form: FilledForm, title: string): string {
  const lines = form.fields.map((field) => {
    const value = valueText(field.value);
    return `${field.label}: ${value === null ? 'not mentioned' : withUnit(value, field.unit)}`;
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
