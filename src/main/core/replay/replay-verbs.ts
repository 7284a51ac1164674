import { SERVICE_SAMPLE_RATE } from '../../../shared/audio-format';
import {
  RECORDING_DELETED_AT_FINISHED,
  type HistoryEntry,
  type VerbRequest,
  type VerbResponse,
} from '../../../shared/contract';
import type { Settings } from '../../../shared/settings';
import type { EncounterHistory } from '../history/encounter-history';
import type { Logger } from '../ports';
import { UserFacingError } from '../user-facing-error';
import {
  deleteVisitRecording,
  findRecording,
  readRecordingSpan,
  RecordingUnavailable,
} from './visit-recording';

export interface ReplayDeps {
  /** Visits' audio, encrypted (spool/): one directory per visit under it. */
  spoolRoot: string;
  spoolKey(): Promise<Uint8Array>;
  settings: { get(): Settings };
  /** Signed out or locked: nothing plays (sign-out-gate.ts). */
  gate: { refuseWhileSignedOut(what: string): void };
  /** Whether the clinician the app acts for is signed in at the service now (a live sign-in). */
  signedIn(): Promise<boolean>;
  history: EncounterHistory;
  /** Another clinician's visit is refused (clinician-visits.ts). */
  requireMine(entry: HistoryEntry): void;
  /** Spools a visit recording or on its way to the service holds: never deleted from under it. */
  inUse(sessionId: string): boolean;
  now(): number;
  log: Logger;
}

/**
 * Playing a visit back (issue 38): a stretch of its own recording, read from the sealed spool for
 * the clinician who recorded it, signed in and unlocked, while its note is not Finished and the
 * organisation keeps recordings to play back (`replayAudio`). The PCM goes to the window in the
 * answer, never as a file; at Finished the recording is deleted (`deleteAtFinished`).
 */
export function createReplay(deps: ReplayDeps) {
  const refuse = (message: string): never => {
    throw new UserFacingError('invalid_request', message);
  };
  return {
    async span({
      sessionId,
      fromMs,
      toMs,
    }: VerbRequest<'recording.span'>): Promise<VerbResponse<'recording.span'>> {
      deps.gate.refuseWhileSignedOut('play the recording');
      if (!(await deps.signedIn())) refuse('Sign in to play the recording.');
      if (!deps.settings.get().replayAudio) refuse('Playing a visit back is turned off on this computer.');
      const entry = deps.history.find(sessionId) ?? refuse('This app has no recording of that visit.');
      deps.requireMine(entry);
      if (entry.finishedAt !== undefined || entry.recordingDeletedAt !== undefined)
        refuse(RECORDING_DELETED_AT_FINISHED);
      const recording =
        findRecording(deps.spoolRoot, sessionId) ??
        refuse('The recording of this visit is no longer on this computer.');
      try {
        const span = readRecordingSpan(recording, await deps.spoolKey(), fromMs, toMs);
        return {
          fromMs: span.fromMs,
          toMs: span.toMs,
          sampleRate: SERVICE_SAMPLE_RATE,
          pcm: span.pcm.toString('base64'),
        };
      } catch (error) {
        if (error instanceof RecordingUnavailable) {
          deps.log.warn('replay: a recording could not be read', { reason: error.message });
          refuse(error.message);
        }
        throw error;
      }
    },
    /** The note is in the EHR: the visit's recording leaves the disk now, not at the next sweep. */
    deleteAtFinished(sessionId: string): void {
      try {
        const deleted = deleteVisitRecording(deps.spoolRoot, sessionId, deps.inUse);
        if (deleted === 0) return;
        deps.log.info('replay: a finished visit’s recording was deleted', { spools: deleted });
        // Undo brings the edits back, not the recording: Play stays gone, and says why.
        deps.history.record({ sessionId, recordingDeletedAt: deps.now() });
      } catch (error) {
        // The sweep deletes it within the grace period (its note is Finished, so nothing keeps it).
        deps.log.warn('replay: a finished visit’s recording could not be deleted yet', {
          error: (error as Error).name,
        });
      }
    },
  };
}
