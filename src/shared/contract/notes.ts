import { z } from 'zod';
import { SEXES } from '../service';

/**
 * The clinician's edits of a visit's note (issue 29): the note is their work product. Main keeps
 * them sealed on this computer until the visit is marked finished ("in the EHR"), for the provider
 * who made them alone. The service's own note is never changed: the window shows it, with these
 * edits over it, and Copy gives the edited text.
 */
const MAX_TEXT = 20_000;

/** A section is known by its place in the note and its title: `2:Assessment`. */
export const noteSectionKeySchema = z.string().min(1).max(300);

/** A form field the service filled, as the clinician corrected it: its value and unit as text. */
export const editedFieldSchema = z.object({
  value: z.string().max(2_000, { message: 'must be at most 2,000 characters' }),
  unit: z.string().max(100, { message: 'must be at most 100 characters' }),
});

export const noteDraftSchema = z.object({
  sessionId: z.string().min(1).max(200),
  /** Edited section texts by section key; a section not here is the service's text. */
  sections: z
    .record(noteSectionKeySchema, z.string().max(MAX_TEXT, { message: 'must be at most 20,000 characters' }))
    .refine((sections) => Object.keys(sections).length <= 60, { message: 'must have at most 60 sections' }),
  /** Edited form fields by `formId/fieldId`. */
  fields: z
    .record(z.string().min(1).max(500), editedFieldSchema)
    .refine((fields) => Object.keys(fields).length <= 500, { message: 'must have at most 500 fields' }),
  /**
   * The check's flags the clinician marked Checked (issue 38), by section key: each flag's checkKey
   * (src/renderer/verify/check-keys.ts). Sealed with the edits, and gone with them at Finished.
   * Absent in drafts written before the check.
   */
  checked: z
    .record(
      noteSectionKeySchema,
      z.array(z.string().min(1).max(600)).max(200, { message: 'must have at most 200 checked values' }),
    )
    .refine((checked) => Object.keys(checked).length <= 60, { message: 'must have at most 60 sections' })
    .optional(),
});
export type NoteDraft = z.infer<typeof noteDraftSchema>;

/** What main has of a visit's edits: none, or the draft; a sentence when some could not be read. */
export const noteDraftReadingSchema = z.object({
  draft: noteDraftSchema.optional(),
  notice: z.string().optional(),
});
export type NoteDraftReading = z.infer<typeof noteDraftReadingSchema>;

/**
 * The patient details a visit was recorded with (issue 31): what its note's header line ("Female ·
 * 68 years · born 9 April 1957") is made from. Main keeps them sealed with the unfinished note, for
 * the provider who recorded the visit, so a note opened again from the rail, after a reload or a
 * restart, still names its patient; they go when the visit is finished or its edits are swept.
 * History never holds them.
 */
export const visitPatientSchema = z.object({
  /** YYYY-MM-DD, as the service was sent it. */
  dateOfBirth: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date written YYYY-MM-DD' })
    .optional(),
  sex: z.enum(SEXES).optional(),
});
export type VisitPatient = z.infer<typeof visitPatientSchema>;

/** What main has of a visit's patient: nothing (not given, finished, swept, another clinician's). */
export const visitPatientReadingSchema = z.object({ patient: visitPatientSchema.optional() });
