import { z } from 'zod';
import { settingsPatchSchema, settingsSchema } from '../settings';
import type { EventName, VerbName } from './names';
import { templatesResponseSchema } from '../service';
import {
  addFormsSchema,
  authStatusSchema,
  formFeedbackSchema,
  recorderViewSchema,
  resultsProgressSchema,
  resultsSchema,
  secretsStatusSchema,
  sessionRefSchema,
  setPartnerTokenSchema,
  startEncounterSchema,
} from './encounter';
import { historyListSchema } from './history';
import { noteDraftReadingSchema, noteDraftSchema, visitPatientReadingSchema } from './notes';
import { privacyStatusSchema, setPinSchema, unlockRequestSchema } from './privacy';
import { recordingSpanRequestSchema, recordingSpanSchema } from './recording';
import {
  declineVisitLinkSchema,
  takeVisitLinkSchema,
  takenVisitLinkSchema,
  visitLinksSchema,
} from './visit-links';

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** Which transport carries the contract: the Electron app, or browser mode (Node + a browser tab). */
  mode: z.enum(['electron', 'browser']),
  platform: z.string(),
  runtime: z.object({ node: z.string(), electron: z.string().optional() }),
  /** Where settings and (later) the audio spool live, so an IT admin can find them. */
  dataDirectory: z.string(),
  /**
   * What the clinician must know about this start, each a sentence that says what happened and
   * what to do (a damaged settings file set aside). Shown in the window; none when all is well.
   */
  notices: z.array(z.string().min(1).max(500)).max(10).optional(),
  /** The organisation's policy in force (issue 18): its file, the settings it locks, the demo's door. */
  managed: z.object({ file: z.string(), locked: z.array(z.string()), demoAllowed: z.boolean() }).optional(),
  /** A policy file that was not applied: the app stops at a screen for IT naming each key and rule. */
  policyProblem: z
    .object({ file: z.string(), problems: z.array(z.object({ key: z.string(), rule: z.string() })) })
    .optional(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

export const heartbeatSchema = z.object({
  /** Increases by one per beat since the core started; a reset means the core restarted. */
  seq: z.number().int().nonnegative(),
  /** Wall-clock ms of the beat (main process clock). */
  at: z.number(),
});
export type Heartbeat = z.infer<typeof heartbeatSchema>;

const noPayload = z.undefined();
const nothing = z.undefined();

/** Every verb: the payload main accepts and the value it answers with. */
export const verbSchemas = {
  'app.info': { request: noPayload, response: appInfoSchema },
  'settings.get': { request: noPayload, response: settingsSchema },
  'settings.set': { request: settingsPatchSchema, response: settingsSchema },
  'secrets.status': { request: noPayload, response: secretsStatusSchema },
  'secrets.setPartnerToken': { request: setPartnerTokenSchema, response: secretsStatusSchema },
  'auth.status': { request: noPayload, response: authStatusSchema },
  'auth.signIn': { request: noPayload, response: authStatusSchema },
  'auth.cancelSignIn': { request: noPayload, response: authStatusSchema },
  'auth.signOut': { request: noPayload, response: authStatusSchema },
  'encounter.start': { request: startEncounterSchema, response: recorderViewSchema },
  'encounter.addForms': { request: addFormsSchema, response: nothing },
  'recorder.state': { request: noPayload, response: recorderViewSchema },
  /**
   * A new capture joins the visit being recorded (the window reloaded, or its renderer crashed and
   * came back): its chunks number from 0 again. Refused when no visit is recording.
   */
  'recorder.attach': { request: noPayload, response: recorderViewSchema },
  'recorder.pause': { request: noPayload, response: recorderViewSchema },
  'recorder.resume': { request: noPayload, response: recorderViewSchema },
  'recorder.end': { request: noPayload, response: recorderViewSchema },
  'recorder.cancel': { request: noPayload, response: recorderViewSchema },
  'results.get': { request: sessionRefSchema, response: resultsSchema },
  'history.list': { request: noPayload, response: historyListSchema },
  /** An interrupted visit: send its spooled audio and make the note (progress as results.progress). */
  'history.finish': { request: sessionRefSchema, response: nothing },
  /** An interrupted visit: delete its spooled audio. */
  'history.discard': { request: sessionRefSchema, response: nothing },
  'forms.templates': { request: noPayload, response: templatesResponseSchema },
  'forms.feedback': { request: formFeedbackSchema, response: nothing },
  /** The EHR's visit links main holds (issue 18): the next visit's, and the last refused one's problems. */
  'visitLinks.get': { request: noPayload, response: visitLinksSchema },
  /** The window filled the next visit in (or showed a refused link): main lets go of that link. */
  'visitLinks.take': { request: takeVisitLinkSchema, response: takenVisitLinkSchema },
  /** The clinician kept their own visit or sign-in: main lets go of that link, nothing filled. */
  'visitLinks.decline': { request: declineVisitLinkSchema, response: nothing },
  /** The clinician's edits of a visit's note (issue 29), for the provider signed in. */
  'notes.get': { request: sessionRefSchema, response: noteDraftReadingSchema },
  /** Keeps the edits sealed on this computer (a draft without edits removes them). */
  'notes.save': { request: noteDraftSchema, response: nothing },
  /** The note is in the EHR: the visit is finished, and its edits leave the disk. */
  'notes.finish': { request: sessionRefSchema, response: nothing },
  /** Undo, a few seconds after finishing: the visit is to finish again, with its edits. */
  'notes.unfinish': { request: sessionRefSchema, response: nothing },
  /**
   * The patient details the visit was recorded with (issue 31), kept sealed by main since Start
   * for the provider who recorded it, until the visit is finished: the note's header line.
   */
  'notes.patient': { request: sessionRefSchema, response: visitPatientReadingSchema },
  /**
   * A stretch of the visit's own recording, to play a line back (issue 38): for the clinician who
   * recorded it, signed in and unlocked, until its note is Finished, where `replayAudio` is on.
   */
  'recording.span': { request: recordingSpanRequestSchema, response: recordingSpanSchema },
  /** Whether main holds the window locked (issue 29): a reload or a second tab finds it so. */
  'privacy.status': { request: noPayload, response: privacyStatusSchema },
  /** The idle lock: main opens nothing of a visit and calls the service for nobody until unlocked. */
  'privacy.lock': { request: noPayload, response: privacyStatusSchema },
  /** Unlocking proves who it is: the clinician's PIN, or a fresh sign-in at their IdP. */
  'privacy.unlock': { request: unlockRequestSchema, response: privacyStatusSchema },
  /** The PIN that unlocks this window for the clinician signed in (Bearer, Single Auth Token). */
  'privacy.setPin': { request: setPinSchema, response: privacyStatusSchema },
} as const satisfies Record<VerbName, { request: z.ZodType; response: z.ZodType }>;

/** Every event main may push to the renderer, with its payload. */
export const eventSchemas = {
  heartbeat: heartbeatSchema,
  'auth.changed': authStatusSchema,
  /** Browser mode: the renderer opens this sign-in address in a new tab (the "system browser"). */
  'auth.openUrl': z.object({ url: z.string().url() }),
  'recorder.changed': recorderViewSchema,
  /** Main refused an audio chunk (chunks have no reply): which one, and why, naming the field. */
  'recorder.chunkRefused': z.object({
    seq: z.number().int().nonnegative().optional(),
    message: z.string(),
    fields: z.array(z.object({ field: z.string(), message: z.string() })),
  }),
  'results.progress': resultsProgressSchema,
  'history.changed': historyListSchema,
  'visitLinks.changed': visitLinksSchema,
  /** Locked, unlocked, a PIN chosen or needed: the window shows the lock or the PIN step. */
  'privacy.changed': privacyStatusSchema,
  /**
   * Electron: whether the window is seen (not minimised or hidden). The page stops drawing what
   * only feeds the screen while it is not (issue 40); browser mode never sends it.
   */
  'window.shown': z.object({ shown: z.boolean() }),
} as const satisfies Record<EventName, z.ZodType>;

export type VerbRequest<V extends VerbName> = z.input<(typeof verbSchemas)[V]['request']>;
export type VerbResponse<V extends VerbName> = z.output<(typeof verbSchemas)[V]['response']>;
export type EventPayload<E extends EventName> = z.output<(typeof eventSchemas)[E]>;
