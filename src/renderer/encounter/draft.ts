import { ENCOUNTER_LABELS, startEncounterSchema, type StartEncounter } from '../../shared/contract/encounter';
import {
  DEFAULT_SECTIONS,
  FIELD_TYPES,
  SEXES,
  formSchemaSchema,
  type FormContextItem,
  type Sex,
} from '../../shared/service';
import type { Specialty } from '../../shared/service/sections';
import { localIsoDate } from '../../shared/local-date';
import type { NoteTemplateId } from '../../shared/note-templates';
import { describeProblems } from '../../shared/validation';
import type { ConsentMethod, ConsentMode } from '../../shared/consent';
import { readDateOfBirth } from './date-of-birth';
import { readEncounterId } from '../../shared/encounter-id';

/** A custom form's field as the editor holds it: options as typed, one per comma. */
export interface CustomFieldDraft {
  id: string;
  label: string;
  type: (typeof FIELD_TYPES)[number];
  unit: string;
  options: string;
}

export interface CustomFormDraft {
  formId: string;
  title: string;
  fields: CustomFieldDraft[];
}

/**
 * One form to fill. Each item is either a service template or a custom form, never both: the
 * service's rule ("exactly one of form_template_id or schema") is the shape of this type.
 */
export type FormDraft = { kind: 'template'; templateId: string } | { kind: 'custom'; form: CustomFormDraft };

/** The visit details as the clinician fills them in before pressing Start. */
export interface EncounterDraft {
  encounterId: string;
  /**
   * The encounter ID is the demo's made-up one (demoEncounterId), not yet edited: outside the demo it
   * counts as none, so a visit is never filed under an ID the EHR never had (issue 37).
   */
  madeUpForDemo?: boolean;
  specialty: Specialty;
  sections: string[];
  /** As typed (see date-of-birth.ts for the forms it may take), or '' (not given). */
  dateOfBirth: string;
  /** '' = not given (the service then assumes UNKNOWN). */
  sex: Sex | '';
  forms: FormDraft[];
  /** A visit link's note template, for this visit only; otherwise the one in settings. */
  template?: NoteTemplateId | undefined;
  /**
   * The patient's consent, checked in the room before Start (issue 29). Every new visit starts
   * without it, a linked one too: a link never gives consent.
   */
  consent: { given: boolean; method: ConsentMethod };
}

/**
 * A fresh draft. Its encounter ID starts empty: a visit link or the clinician fills it in, as the EHR
 * has it. The built-in demo has no EHR: there it is made up from the date and time, and marked as the
 * demo's, so Start works without typing anything.
 */
export function newDraft(now: Date, specialty: Specialty, demo = false): EncounterDraft {
  return {
    encounterId: demo ? demoEncounterId(now) : '',
    ...(demo ? { madeUpForDemo: true } : {}),
    specialty,
    sections: [...DEFAULT_SECTIONS],
    dateOfBirth: '',
    sex: '',
    forms: [],
    consent: { given: false, method: 'verbal' },
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The demo's made-up ID, from the local date and time (letters and digits only, as the service requires). */
export function demoEncounterId(now: Date): string {
  return `demo${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}

/** The encounter ID the draft really has: the demo's made-up one is none outside the demo. */
export function typedEncounterId(draft: EncounterDraft, demo: boolean): string {
  return draft.madeUpForDemo === true && !demo ? '' : draft.encounterId;
}

export const emptyCustomForm = (): CustomFormDraft => ({
  formId: '',
  title: '',
  fields: [emptyField()],
});

export const emptyField = (): CustomFieldDraft => ({
  id: '',
  label: '',
  type: 'string',
  unit: '',
  options: '',
});

/** The service's form item for one draft form. */
export function toFormItem(form: FormDraft): FormContextItem {
  if (form.kind === 'template') return { form_template_id: form.templateId };
  return {
    schema: {
      form_id: form.form.formId.trim(),
      title: form.form.title.trim(),
      fields: form.form.fields.map((field) => {
        const options = field.options
          .split(',')
          .map((option) => option.trim())
          .filter(Boolean);
        return {
          id: field.id.trim(),
          label: field.label.trim(),
          type: field.type,
          ...(field.unit.trim() ? { unit: field.unit.trim() } : {}),
          ...(field.type === 'enum' ? { options } : {}),
        };
      }),
    },
  };
}

/** Names for the custom form's fields, so a problem reads "Field 2 ID must …". */
const CUSTOM_FORM_LABELS: Record<string, string> = {
  form_id: 'Form ID',
  title: 'Form title',
  fields: 'Fields',
};
const FIELD_PART_LABELS: Record<string, string> = {
  id: 'ID',
  label: 'label',
  type: 'type',
  unit: 'unit',
  options: 'options',
};

/**
 * The problems of one custom form, keyed by editor path ("formId", "fields.1.id", …), each a
 * sentence naming the field. Enum fields need at least one option.
 */
export function customFormProblems(form: CustomFormDraft): Record<string, string> {
  const item = toFormItem({ kind: 'custom', form });
  const problems: Record<string, string> = {};
  const parsed = formSchemaSchema.safeParse(item.schema);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [top, index, part] = issue.path.map(String);
      const key =
        top === 'form_id'
          ? 'formId'
          : top === 'fields' && index !== undefined
            ? `fields.${index}.${part}`
            : top!;
      const label =
        top === 'fields' && index !== undefined
          ? `Field ${Number(index) + 1} ${FIELD_PART_LABELS[part ?? ''] ?? part ?? ''}`.trim()
          : (CUSTOM_FORM_LABELS[top!] ?? top!);
      const rule = issue.code === 'too_small' ? tooSmallRule(top, part) : issue.message;
      problems[key] ??= `${label} ${rule}.`;
    }
  }
  form.fields.forEach((field, index) => {
    if (field.type === 'enum' && !field.options.split(',').some((o) => o.trim()))
      problems[`fields.${index}.options`] ??=
        `Field ${index + 1} options must list the choices, separated by commas.`;
  });
  const ids = form.fields.map((field) => field.id.trim()).filter(Boolean);
  ids.forEach((id, index) => {
    if (ids.indexOf(id) !== index) problems[`fields.${index}.id`] ??= `Field ${index + 1} ID must be unique.`;
  });
  return problems;
}

function tooSmallRule(top: string | undefined, part: string | undefined): string {
  if (top === 'fields' && !part) return 'must have at least one field';
  return 'must not be empty';
}

/** What the check needs besides the draft: the clinician's settings as they bear on this visit. */
export interface DraftCheckOptions {
  now?: Date;
  locale?: string | undefined;
  /** The organisation's consent rule and the words said to the patient. */
  consent?: { mode: ConsentMode; wording: string } | undefined;
  /** The built-in demo: its made-up encounter ID counts. */
  demo?: boolean;
  /** A telehealth visit (the call's sound recorded): the visit is marked a video visit. */
  video?: boolean;
}

/**
 * The whole draft checked as main will check it: either the request to send, or the problems by
 * field (encounter paths as in ENCOUNTER_LABELS, custom forms as "forms.N.<editor path>").
 */
export function checkDraft(
  draft: EncounterDraft,
  {
    now = new Date(),
    locale,
    consent = { mode: 'off', wording: '' },
    demo = false,
    video = false,
  }: DraftCheckOptions = {},
): { ok: true; request: StartEncounter } | { ok: false; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  // As the EHR prints it; the service gets its letters and digits (encounter-id.ts), History shows
  // it as typed.
  const typed = typedEncounterId(draft, demo);
  const encounterId = readEncounterId(typed);
  if (encounterId.kind === 'problem') problems.encounterId = encounterId.problem;
  if (consent.mode === 'required' && !draft.consent.given)
    problems.consent = 'Check that the patient agreed to be recorded first: your organisation requires it.';
  // The date as typed, read as the screen showed it in words; the service gets YYYY-MM-DD.
  const birth = readDateOfBirth(draft.dateOfBirth, localIsoDate(now), locale);
  const dateOfBirth = birth.kind === 'date' ? birth.iso : '';
  draft.forms.forEach((form, index) => {
    if (form.kind !== 'custom') return;
    for (const [key, message] of Object.entries(customFormProblems(form.form)))
      problems[`forms.${index}.${key}`] = message;
  });
  const keys = draft.forms.map((form) =>
    form.kind === 'template' ? `template:${form.templateId}` : `schema:${form.form.formId.trim()}`,
  );
  keys.forEach((key, index) => {
    if (keys.indexOf(key) !== index) problems[`forms.${index}`] = 'This form is listed twice; remove one.';
  });
  const request = {
    kind: 'ambient' as const,
    encounterId: encounterId.kind === 'id' ? encounterId.sent : '',
    ...(encounterId.kind === 'id' && encounterId.changed ? { shownAs: typed.trim() } : {}),
    ...(video ? { video: true as const } : {}),
    context: {
      provider_specialty: draft.specialty,
      sections: draft.sections,
      ...(dateOfBirth || draft.sex
        ? {
            patient_info: {
              ...(dateOfBirth ? { date_of_birth: dateOfBirth } : {}),
              ...(draft.sex ? { sex: draft.sex } : {}),
            },
          }
        : {}),
    },
    ...(draft.forms.length ? { formItems: draft.forms.map(toFormItem) } : {}),
    // Asked or required, and given: the attestation goes with the visit.
    ...(consent.mode !== 'off' && draft.consent.given
      ? { consent: { method: draft.consent.method, wording: consent.wording } }
      : {}),
  };
  const parsed = startEncounterSchema.safeParse(request);
  if (!parsed.success) {
    for (const problem of describeProblems(parsed.error, ENCOUNTER_LABELS)) {
      // Custom form problems are already named field by field above.
      if (problem.field.startsWith('formItems')) continue;
      problems[problem.field] ??= problem.message;
    }
  }
  // After the encounter id's: problems are named in the order the fields are on screen.
  if (birth.kind === 'problem') problems['context.patient_info.date_of_birth'] = birth.problem;
  if (draft.sections.length === 0)
    problems['context.sections'] = 'Note sections must include at least one section.';
  if (Object.keys(problems).length > 0 || !parsed.success) {
    return {
      ok: false,
      problems: Object.keys(problems).length ? problems : { request: 'The visit details are incomplete.' },
    };
  }
  return { ok: true, request: parsed.data };
}

export const SEX_CHOICES: { value: Sex | ''; label: string }[] = [
  { value: '', label: 'Not given' },
  ...SEXES.map((sex) => ({ value: sex, label: sex.charAt(0) + sex.slice(1).toLowerCase() })),
];

// Re-exported for the editor's type select.
export { FIELD_TYPES };
