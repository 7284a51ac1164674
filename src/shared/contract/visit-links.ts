import { z } from 'zod';
import { NOTE_TEMPLATE_IDS } from '../note-templates';
import { SEXES, SPECIALTIES, encounterIdSchema } from '../service';

/** A visit link's details, read and checked by main (visit-link.ts); the renderer fills them in. */
export const visitLinkSchema = z.object({
  encounterId: encounterIdSchema,
  dateOfBirth: z.string().optional(),
  sex: z.enum(SEXES).optional(),
  specialty: z.enum(SPECIALTIES).optional(),
  template: z.enum(NOTE_TEMPLATE_IDS).optional(),
  providerId: z.string().optional(),
});

/** A field of a link (`encounter_id`, or `link` for the whole) and the rule it broke. */
export const visitLinkProblemSchema = z.object({ field: z.string(), rule: z.string() });

/**
 * What main holds of the EHR's visit links (issue 18): the visit a link opened, until the window
 * fills it in (kept as the next visit while one records); and the last link that could not be
 * used, with each problem, until the clinician has read it. Each carries an id, so taking one
 * never takes a newer link that arrived meanwhile.
 */
export const visitLinksSchema = z.object({
  next: z
    .object({
      id: z.number().int().positive(),
      link: visitLinkSchema,
      /**
       * The link names another provider than the one this app acts as, and the organisation's
       * policy lets links switch (issue 28): nothing changes until the clinician confirms in the
       * window (take with switchProvider), and the switch is never stored in the settings.
       */
      providerSwitch: z.object({ from: z.string(), to: z.string() }).optional(),
    })
    .optional(),
  refused: z
    .object({
      id: z.number().int().positive(),
      problems: z.array(visitLinkProblemSchema).min(1),
      /** One sentence for the window when the link itself was fine but not for this clinician. */
      reason: z.string().optional(),
    })
    .optional(),
});
export type VisitLinks = z.infer<typeof visitLinksSchema>;

export const takeVisitLinkSchema = z.object({
  id: z.number().int().positive(),
  /** The clinician confirmed the switch to the link's provider (next.providerSwitch). */
  switchProvider: z.boolean().optional(),
});
/** The clinician did not open the next visit's link (kept their own visit, or their own sign-in). */
export const declineVisitLinkSchema = z.object({ id: z.number().int().positive() });
/** The link's details when `id` was the next visit; nothing when it was a refused link (now read). */
export const takenVisitLinkSchema = z.object({ link: visitLinkSchema.optional() });
