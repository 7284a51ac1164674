import { z } from 'zod';
import { consentRecordSchema } from '../consent';
import { deliveryTargetSchema } from '../delivery-target';
import { visitClockSchema } from '../visit-clock';

/** Where a visit of this device stands, in the words the History list uses. */
export const HISTORY_STATES = [
  'recording',
  /** The app stopped mid-visit; the audio is in the spool, to finish or discard. */
  'interrupted',
  /** End was pressed while the service could not be reached: it finishes by itself when it can. */
  'finishing',
  'processing',
  'done',
  'skipped',
  'failed',
  'cancelled',
] as const;
export type HistoryState = (typeof HISTORY_STATES)[number];

/**
 * One visit recorded on this device. Identifiers and times only: the note and the transcript stay
 * with the service and are fetched again when the visit is reopened, so nothing clinical is kept
 * on disk here.
 */
export const historyEntrySchema = z.object({
  encounterId: z.string(),
  /** The encounter ID as typed, where it differs from what the service got (issue 37). */
  shownAs: z.string().max(1000).optional(),
  /** A telehealth visit: the call's sound was recorded with the room's. */
  video: z.literal(true).optional(),
  /** Time of the visit no audio came for while its window reloaded or restarted, ms (issue 37). */
  missingAudioMs: z.number().nonnegative().optional(),
  sessionId: z.string(),
  formSessionId: z.string().optional(),
  kind: z.enum(['ambient', 'form']),
  state: z.enum(HISTORY_STATES),
  /** The service's last status for it. */
  status: z.string().optional(),
  startedAt: z.number(),
  endedAt: z.number().optional(),
  /**
   * Its audio is still in this computer's spool, not yet with the service: an interrupted or
   * failed visit can be finished (tried again) or discarded.
   */
  audioKept: z.boolean().optional(),
  /**
   * Where its sent audio sits on the visit's own clock (shared/visit-clock.ts): times only, so a
   * note opened again later shows its transcript on the clock the recording screen showed.
   */
  visitClock: visitClockSchema.optional(),
  /**
   * Its owner (issues 28 and 39; no patient detail): the service, partner, provider and sign-in
   * model it was recorded under. Only they see it, and its audio is only ever sent there; an
   * entry without one is nobody's (privacy/clinician-visits.ts).
   */
  deliverTo: deliveryTargetSchema.optional(),
  /**
   * The owner and the consent as main sealed them at Start (main/core/sealed/visit-seal.ts): main reads
   * `deliverTo` and `consent` from this alone, so a value typed into the file counts for nothing.
   */
  sealed: z.string().max(8_000).optional(),
  /**
   * When the clinician marked the visit finished: its note is in the EHR (issue 29). A visit with
   * a note and no such time is still to finish.
   */
  finishedAt: z.number().optional(),
  /**
   * When the visit's recording, kept to play its lines back, was deleted at Finished (issue 38): an
   * Undo does not bring it back, so Play stays gone and says why.
   */
  recordingDeletedAt: z.number().optional(),
  /** The patient's consent to the recording, as the clinician attested it at Start (issue 29). */
  consent: consentRecordSchema.optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const historyListSchema = z.object({ entries: z.array(historyEntrySchema) });
