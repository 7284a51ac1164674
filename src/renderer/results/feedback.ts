import { formFeedbackSchema } from '../../shared/contract';
import type { FilledField, FilledForm, FormField, FormTemplate } from '../../shared/service';
import { describeProblems } from '../../shared/validation';

export type FieldType = FormField['type'];

/** What the clinician entered in a form's feedback: corrections as typed, keyed by field id. */
export interface FeedbackDraft {
  rating?: number | undefined;
  comment?: string | undefined;
  corrections?: Record<string, string> | undefined;
}

/** The draft control a problem belongs to: 'rating', 'comment' or 'correction:<field id>'. */
export type DraftKey = 'rating' | 'comment' | `correction:${string}`;

export type CheckedFeedback =
  | { ok: true; request: { sessionId: string; formId: string; feedback: FeedbackRequestBody } }
  | { ok: false; key: DraftKey | undefined; message: string };

type Value = string | number | boolean | null;
interface FeedbackRequestBody {
  rating: number;
  comment?: string;
  field_corrections?: { id: string; value: Value }[];
}

/**
 * A field's type: the template says, when the form came from one; otherwise the value the service
 * filled in is the best hint (a null value of an unknown form stays text).
 */
export function fieldType(field: FilledField, template?: FormTemplate): FieldType {
  const declared = template?.fields.find((f) => f.id === field.id)?.type;
  if (declared) return declared;
  if (typeof field.value === 'number') return 'number';
  if (typeof field.value === 'boolean') return 'boolean';
  return 'string';
}

const YES = new Set(['yes', 'y', 'true']);
const NO = new Set(['no', 'n', 'false']);
const NUMERIC = /^[-+]?\d+(?:[.,]\d+)?$/;

/**
 * A typed correction as the service stores the field: numbers for number fields when the text is
 * a number (a clinician may also write "not measured"), yes/no for boolean fields, text otherwise.
 */
export function correctionValue(
  raw: string,
  type: FieldType,
): { ok: true; value: string | number | boolean } | { ok: false; rule: string } {
  const text = raw.trim();
  if (type === 'number' && NUMERIC.test(text)) return { ok: true, value: Number(text.replace(',', '.')) };
  if (type === 'boolean') {
    const word = text.toLowerCase();
    if (YES.has(word)) return { ok: true, value: true };
    if (NO.has(word)) return { ok: true, value: false };
    return { ok: false, rule: 'must be yes or no' };
  }
  return { ok: true, value: text };
}

/** What an unchosen rating says: the rating is the one thing the service needs (docs/protocol.md). */
export const RATING_NEEDED = 'Choose a rating from 1 to 5: the service needs one.';

/**
 * The feedback request for one form, checked with the same schema main applies, so a mistake is
 * named (as the form labels it) before anything is sent. An unchosen rating says what to do; one
 * out of range (never from the form's own choices) names the rule.
 */
export function checkFeedback(
  target: { sessionId: string; form: FilledForm; template?: FormTemplate | undefined },
  draft: FeedbackDraft,
): CheckedFeedback {
  // protocol: Form filling (feedback: rating 1-5 required; comment and field_corrections optional)
  if (draft.rating === undefined) return { ok: false, key: 'rating', message: RATING_NEEDED };
  const corrections: { id: string; value: Value; label: string }[] = [];
  for (const field of target.form.fields) {
    const raw = draft.corrections?.[field.id];
    if (raw === undefined || raw.trim() === '') continue;
    const converted = correctionValue(raw, fieldType(field, target.template));
    const label = `Correction for ${field.label}`;
    if (!converted.ok)
      return { ok: false, key: `correction:${field.id}`, message: `${label} ${converted.rule}.` };
    corrections.push({ id: field.id, value: converted.value, label });
  }
  const comment = draft.comment?.trim();
  const request = {
    sessionId: target.sessionId,
    formId: target.form.form_id,
    feedback: {
      rating: draft.rating,
      ...(comment ? { comment } : {}),
      ...(corrections.length
        ? { field_corrections: corrections.map(({ id, value }) => ({ id, value })) }
        : {}),
    },
  };
  const checked = formFeedbackSchema.safeParse(request);
  if (checked.success) return { ok: true, request: checked.data };
  const labels: Record<string, string> = {
    'feedback.rating': 'Rating',
    'feedback.comment': 'Comment',
    'feedback.field_corrections': 'Corrections',
    ...Object.fromEntries(corrections.map((c, i) => [`feedback.field_corrections.${i}.value`, c.label])),
  };
  const problem = describeProblems(checked.error, labels)[0]!;
  return { ok: false, key: draftKey(problem.field, corrections), message: problem.message };
}

function draftKey(path: string, corrections: { id: string }[]): DraftKey | undefined {
  if (path === 'feedback.rating') return 'rating';
  if (path === 'feedback.comment') return 'comment';
  const index = /^feedback\.field_corrections\.(\d+)/.exec(path)?.[1];
  const id = index === undefined ? undefined : corrections[Number(index)]?.id;
  return id === undefined ? undefined : `correction:${id}`;
}
