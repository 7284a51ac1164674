import type { HistoryEntry } from '../../../shared/contract';
import type { DeliveryTarget } from '../../../shared/delivery-target';
import type { NoteDraft, NoteDraftReading, VisitPatient } from '../../../shared/contract/notes';
import type { EncounterHistory } from '../history/encounter-history';
import type { Clock, Logger } from '../ports';
import { UserFacingError } from '../user-facing-error';
import type { NoteDraftStore } from './note-draft-store';

/** How long "Undo" brings a finished visit's edits back (the window offers it as long). */
export const UNDO_FINISH_MS = 10_000;

export interface VisitNotesDeps {
  store: NoteDraftStore;
  history: EncounterHistory;
  /**
   * The clinician the edits belong to: the provider signed in now. Throws when nobody has proven
   * they are the note's clinician (signed out, locked).
   */
  owner(): Promise<DeliveryTarget>;
  /** Refuses a visit another clinician recorded (privacy/clinician-visits.ts). */
  requireMine?(entry: HistoryEntry): void;
  /**
   * At Finished, once nothing can fail it and before History says so: the visit's recording leaves
   * the disk (replay-verbs.ts). The window says it was deleted as soon as History says Finished.
   */
  beforeFinished?(sessionId: string): void;
  clock: Clock;
  log: Logger;
}

/**
 * A visit's note as the clinician's work (issue 29): their edits kept sealed for them alone, and
 * "In the EHR": once finished, nothing of the note stays on this computer. Undo, for a few
 * seconds, brings the edits back from memory (they leave the disk at once).
 */
export function createVisitNotes(deps: VisitNotesDeps) {
  const { store, history } = deps;
  const justFinished = new Map<
    string,
    { draft?: NoteDraft; patient?: VisitPatient; owner: DeliveryTarget; until: number }
  >();

  const known = (sessionId: string) => {
    const entry = history.find(sessionId);
    if (!entry) throw new UserFacingError('invalid_request', 'This app has no visit with that recording.');
    deps.requireMine?.(entry);
    return entry;
  };

  return {
    async get(sessionId: string): Promise<NoteDraftReading> {
      known(sessionId);
      return store.read(sessionId, await deps.owner());
    },

    /** The patient details the visit was recorded with (issue 31), for its clinician alone. */
    async patient(sessionId: string): Promise<{ patient?: VisitPatient }> {
      known(sessionId);
      const patient = await store.readPatient(sessionId, await deps.owner());
      return patient ? { patient } : {};
    },

    /**
     * At Start: the patient details the visit is recorded with, sealed for the clinician recording
     * it (`owner`), so its note names its patient after a reload or a restart. Never fails the
     * visit: without them the note's header has no patient line, as before issue 31.
     */
    async keepPatient(sessionId: string, patient: VisitPatient, owner: DeliveryTarget): Promise<void> {
      try {
        await store.keepPatient(sessionId, patient, owner);
      } catch (error) {
        deps.log.warn('notes: the patient details of a visit could not be kept', {
          error: (error as Error).name,
        });
      }
    },

    /** A discarded visit: nothing of it stays (its patient details included). */
    forget(sessionId: string): void {
      store.remove(sessionId);
      justFinished.delete(sessionId);
    },

    async save(draft: NoteDraft): Promise<void> {
      const entry = known(draft.sessionId);
      if (entry.finishedAt !== undefined)
        throw new UserFacingError(
          'invalid_request',
          'This visit is marked finished, so its edits are not kept here. Undo “Finished” to edit it.',
        );
      await store.write(draft, await deps.owner());
    },

    async finish(sessionId: string): Promise<void> {
      const entry = known(sessionId);
      if (entry.finishedAt !== undefined) return;
      const owner = await deps.owner();
      const { draft } = await store.read(sessionId, owner);
      const patient = await store.readPatient(sessionId, owner);
      store.remove(sessionId);
      justFinished.set(sessionId, {
        ...(draft ? { draft } : {}),
        ...(patient ? { patient } : {}),
        owner,
        until: deps.clock.now() + UNDO_FINISH_MS,
      });
      deps.clock.after(UNDO_FINISH_MS, () => justFinished.delete(sessionId));
      deps.beforeFinished?.(sessionId);
      history.record({ sessionId, finishedAt: deps.clock.now() });
      deps.log.info('notes: a visit was marked finished', { edited: draft !== undefined });
    },

    async unfinish(sessionId: string): Promise<void> {
      known(sessionId);
      const held = justFinished.get(sessionId);
      if (!held || deps.clock.now() > held.until)
        throw new UserFacingError(
          'invalid_request',
          'Too late to undo: the edits of this visit are gone from this computer. Open it to see the service’s note.',
        );
      justFinished.delete(sessionId);
      if (held.draft) await store.write(held.draft, held.owner);
      if (held.patient) await store.keepPatient(sessionId, held.patient, held.owner);
      history.unfinish(sessionId);
    },

    /** Unfinished edits older than the retention go (note-draft-store.ts). */
    sweep: (maxAgeMs: number) => store.sweep(maxAgeMs),

    /** Sign-out and the lock: edits held for Undo leave memory too. */
    forgetHeld(): void {
      justFinished.clear();
    },
  };
}

/**
 * The contract verbs of a visit's note (notes.get, notes.save, notes.finish, notes.unfinish,
 * notes.patient). The patient details are kept by main itself at Start: no verb writes them.
 */
export function noteVerbs(notes: ReturnType<typeof createVisitNotes>) {
  return {
    'notes.get': ({ sessionId }: { sessionId: string }) => notes.get(sessionId),
    'notes.save': async (draft: NoteDraft) => {
      await notes.save(draft);
      return undefined;
    },
    'notes.finish': async ({ sessionId }: { sessionId: string }) => {
      await notes.finish(sessionId);
      return undefined;
    },
    'notes.unfinish': async ({ sessionId }: { sessionId: string }) => {
      await notes.unfinish(sessionId);
      return undefined;
    },
    'notes.patient': ({ sessionId }: { sessionId: string }) => notes.patient(sessionId),
  };
}
