import { z } from 'zod';
import {
  DATE_OF_BIRTH_RULE,
  encounterIdSchema,
  isPastIsoDate,
  feedbackRequestSchema,
  filledFormSchema,
  formContextItemSchema,
  sessionContextSchema,
  summarySectionSchema,
  transcriptEntrySchema,
} from '../service';
import { localIsoDate } from '../local-date';
import { settingsSchema } from '../settings';
import { givenConsentSchema } from '../consent';
import { visitClockSchema } from '../visit-clock';

/** What the renderer may see of sign-in: never a token. */
export const authStatusSchema = z.object({
  model: z.enum(['standard', 'bearer', 'single_auth_token']),
  signedIn: z.boolean(),
  /** A standard sign-in is waiting for the clinician in the browser. */
  signingIn: z.boolean(),
  providerId: z.string().optional(),
  /** Wall-clock ms until which the service token is valid. */
  validUntil: z.number().optional(),
  /** One sentence about the last problem, with what to do. */
  problem: z.string().optional(),
  /** The built-in sandbox is the service: notes are simulated. */
  demo: z.boolean(),
  /**
   * The clinician pressed Sign out (issue 29): nothing signs in by itself until they press Sign in,
   * and nothing of a visit opens meanwhile.
   */
  signedOutByClinician: z.boolean().optional(),
});
export type AuthStatus = z.infer<typeof authStatusSchema>;

export const secretsStatusSchema = z.object({
  partnerTokenStored: z.boolean(),
  /**
   * The service the answer is about (an origin, or the built-in demo's name): a partner token is
   * kept for the address it was entered for alone (issue 28).
   */
  forService: z.string(),
  /** How secrets are kept on this machine. */
  persistence: z.enum(['encrypted', 'owner-only-file', 'memory']),
  /** Why secrets are kept in memory only, when they are. */
  notice: z.string().optional(),
});

export const setPartnerTokenSchema = z.object({
  token: z
    .string()
    .trim()
    .min(8, { message: 'must be the partner token from onboarding (at least 8 characters)' })
    .max(8192),
  /**
   * The service address it was entered for (the one being saved with it); the service in use when
   * absent. Main keeps it for that service alone and never sends it to another (issue 28).
   */
  service: settingsSchema.shape.service.optional(),
});

/** The ambient context, checked before anything is sent: a date of birth must be a real past date. */
const checkedContextSchema = sessionContextSchema.superRefine((context, ctx) => {
  const dob = context.patient_info?.date_of_birth;
  if (dob !== undefined && !isPastIsoDate(dob, localIsoDate(new Date()))) {
    ctx.addIssue({ code: 'custom', path: ['patient_info', 'date_of_birth'], message: DATE_OF_BIRTH_RULE });
  }
});

/**
 * The encounter ID as the clinician typed it or the link gave it, when that is not exactly what the
 * service gets ("ENC-2024-00871" for ENC202400871): History shows it so, to match the EHR (issue 37).
 */
const shownAsSchema = z.string().trim().min(1).max(1000).optional();

export const startEncounterSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('ambient'),
    encounterId: encounterIdSchema,
    shownAs: shownAsSchema,
    /** A telehealth visit (the call's sound recorded with the room's): its note says "Video visit". */
    video: z.literal(true).optional(),
    context: checkedContextSchema.optional(),
    /**
     * Forms to fill from the same visit: main runs a form-filling session beside the ambient one
     * and streams it the same audio (the service keeps the two kinds of session apart).
     */
    formItems: z.array(formContextItemSchema).max(20).optional(),
    /** The patient agreed to be recorded (issue 29): how, and to which wording. */
    consent: givenConsentSchema.optional(),
  }),
  z.object({
    kind: z.literal('form'),
    encounterId: encounterIdSchema,
    shownAs: shownAsSchema,
    formItems: z.array(formContextItemSchema).min(1, { message: 'must have at least one form' }).max(20),
    consent: givenConsentSchema.optional(),
  }),
]);
export type StartEncounter = z.infer<typeof startEncounterSchema>;

/** More forms for the running form-filling session (merged by template id or schema form_id). */
export const addFormsSchema = z.object({
  formItems: z.array(formContextItemSchema).min(1, { message: 'must have at least one form' }).max(20),
});

export const RECORDER_STATES = [
  'idle',
  'connecting',
  'streaming',
  'auto-paused',
  'paused',
  'reconnecting',
  'offline',
  'ending',
  'ended',
  'cancelled',
  'failed',
] as const;

/**
 * Main's states of a visit being recorded: the recording screen shows its controls, a page that
 * loads meanwhile rejoins the visit with its microphone, and a visit link waits for the next visit.
 */
export const RECORDING_STATES: ReadonlySet<(typeof RECORDER_STATES)[number]> = new Set<
  (typeof RECORDER_STATES)[number]
>(['connecting', 'streaming', 'auto-paused', 'paused', 'reconnecting', 'offline']);

/** Why a recording is paused: by the clinician, while nobody speaks, a silent microphone, or too long. */
export const PAUSE_REASONS = ['manual', 'no-speech', 'mic-stopped', 'pause-limit'] as const;

export const recorderViewSchema = z.object({
  state: z.enum(RECORDER_STATES),
  /** Why it is paused or failed, in words. */
  reason: z.string().optional(),
  /** Why it is paused, for the screen to choose its short state line. */
  pauseReason: z.enum(PAUSE_REASONS).optional(),
  sessionId: z.string().optional(),
  encounterId: z.string().optional(),
  kind: z.enum(['ambient', 'form']).optional(),
  /** Captured audio so far, ms. */
  elapsedMs: z.number(),
  speech: z.boolean(),
  /** Audio the service does not have yet, ms (the "sending backlog" figure). */
  backlogMs: z.number(),
  /** Something the clinician must know about this visit's safety (the disk refused its audio). */
  notice: z.string().optional(),
  /** Time of the visit with no audio while its window reloaded or restarted, ms (absent: none). */
  missingAudioMs: z.number().nonnegative().optional(),
});
export type RecorderView = z.infer<typeof recorderViewSchema>;

export const sessionRefSchema = z.object({ sessionId: z.string().min(1).max(100) });

export const resultsSchema = z.object({
  sessionId: z.string(),
  kind: z.enum(['ambient', 'form']),
  status: z.string(),
  done: z.boolean(),
  summary: z.array(summarySectionSchema).optional(),
  transcript: z.array(transcriptEntrySchema).optional(),
  /**
   * The transcript's offsets count only the audio the service received (auto-pauses hold some
   * back): this maps them to the visit's own time (toVisitMs in shared/visit-clock.ts). Absent
   * when this app kept none for the visit: the offsets are then shown as the service gave them.
   */
  visitClock: visitClockSchema.optional(),
  forms: z.array(filledFormSchema).optional(),
  /** The form-filling session the forms came from (feedback goes to it). */
  formSessionId: z.string().optional(),
  /** A sentence for skipped/failed, with the next step. */
  problem: z.string().optional(),
  /** The same for the forms of an ambient visit, whose note may be fine when its forms are not. */
  formsProblem: z.string().optional(),
});
export type Results = z.infer<typeof resultsSchema>;

export const resultsProgressSchema = z.object({
  sessionId: z.string(),
  status: z.string(),
  elapsedMs: z.number(),
  done: z.boolean(),
  /** The service cannot be reached: the visit finishes by itself when it can. */
  offline: z.boolean().optional(),
});

export const formFeedbackSchema = z.object({
  sessionId: z.string().min(1).max(100),
  formId: z.string().min(1).max(100),
  feedback: feedbackRequestSchema,
});

/** Names people see for the encounter fields, so a refusal names the field as the UI labels it. */
export const ENCOUNTER_LABELS: Record<string, string> = {
  encounterId: 'Encounter ID',
  shownAs: 'Encounter ID',
  'context.patient_info.date_of_birth': 'Date of birth',
  'context.patient_info.sex': 'Sex',
  'context.sections': 'Note sections',
  'context.provider_specialty': 'Specialty',
  formItems: 'Forms',
  consent: 'Patient consent',
  'consent.method': 'How the patient agreed',
  'consent.wording': 'What was said to the patient',
  'feedback.rating': 'Rating',
  'feedback.comment': 'Comment',
  token: 'Partner token',
};
