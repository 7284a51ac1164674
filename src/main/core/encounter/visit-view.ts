import type { RecorderView, StartEncounter } from '../../../shared/contract';
import { describeRecorder, type RecorderSnapshot } from '../recorder/recorder-view';

/** What the recording screen shows before the first visit. */
export const IDLE: RecorderView = { state: 'idle', elapsedMs: 0, speech: false, backlogMs: 0 };

/** The disk refused a visit's audio: it goes on in memory (spooled-audio-log.ts), and the clinician must know. */
export const DISK_REFUSED_NOTICE =
  "This computer's disk would not take the recording (it may be full). The visit goes on and is kept in memory: keep the app open until its note arrives, and tell your IT admin.";

/** The contract's view of a visit's recorder (its main leg), with the words the screen shows. */
export function toView(
  visit: { sessionId: string; encounterId: string; kind: StartEncounter['kind'] },
  snapshot: RecorderSnapshot,
  notice?: string,
): RecorderView {
  const reason = describeRecorder(snapshot);
  return {
    state: snapshot.state,
    ...(reason ? { reason } : {}),
    ...(snapshot.pauseReason ? { pauseReason: snapshot.pauseReason } : {}),
    ...(notice ? { notice } : {}),
    sessionId: visit.sessionId,
    encounterId: visit.encounterId,
    kind: visit.kind,
    elapsedMs: snapshot.elapsedMs,
    speech: snapshot.speech,
    backlogMs: snapshot.backlogMs,
    ...(snapshot.missingAudioMs > 0 ? { missingAudioMs: snapshot.missingAudioMs } : {}),
  };
}
