import { z } from 'zod';

/**
 * The patient's consent to ambient recording (issue 29). Many jurisdictions require every party's
 * consent to record: the organisation chooses whether the app asks (a check before Start that can
 * be skipped) or requires it (Start waits for it), and may set the sentence read to the patient.
 * The record (how, when, by which provider, and the wording) stays with the visit in History
 * (no patient detail), is shown in the note's header and closes Copy all. A visit link never sets
 * it: consent is given in the room.
 */
export const CONSENT_MODES = ['off', 'ask', 'required'] as const;
export type ConsentMode = (typeof CONSENT_MODES)[number];

export const CONSENT_METHODS = ['verbal', 'written'] as const;
export type ConsentMethod = (typeof CONSENT_METHODS)[number];

export const DEFAULT_CONSENT_WORDING =
  'I use an assistant that records our conversation to help write my notes. The recording is used only for your record and is not kept once the note is written. Is that all right with you?';

export const consentWordingSchema = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(500, { message: 'must be at most 500 characters' });

/** What the clinician attests at Start: how the patient agreed, to which wording. */
export const givenConsentSchema = z.object({
  method: z.enum(CONSENT_METHODS, { message: 'must be verbal or written' }),
  wording: consentWordingSchema,
});
export type GivenConsent = z.infer<typeof givenConsentSchema>;

/** The consent as History keeps it with the visit. */
export const consentRecordSchema = givenConsentSchema.extend({
  /** When it was given: the visit's start, ms. */
  at: z.number(),
  /** The provider who recorded the visit and attested the consent. */
  providerId: z.string().max(200),
});
export type ConsentRecord = z.infer<typeof consentRecordSchema>;

/**
 * The line that closes Copy all: "Consent to ambient recording: verbal, 27 Nov 2026, 10:47 PM,
 * dr-x." `when` writes its date and time as the window does (issue 37: a time alone, and a 24-hour
 * one where the window says 10:47 PM, was not enough for the record).
 */
export function consentLine(record: ConsentRecord, when: (at: number) => string): string {
  return `Consent to ambient recording: ${record.method}, ${when(record.at)}${record.providerId ? `, ${record.providerId}` : ''}.`;
}
