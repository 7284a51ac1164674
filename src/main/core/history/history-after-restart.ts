import { join } from 'node:path';
import type { UnfinishedVisit } from '../encounter/spooled-visits';
import type { Logger } from '../ports';
import { rebuildSpoolManifest } from '../spool/spool-manifest-rebuild';
import type { EncounterHistory } from './encounter-history';

/**
 * History after a restart, from the spools (what is on disk decides): a visit that was recording
 * is interrupted (the clinician finishes or discards it); one whose End was pressed is finishing
 * and goes on by itself; a visit said to have audio that is gone (swept, deleted) has none.
 */
export function reconcileHistory(history: EncounterHistory, unfinished: UnfinishedVisit[]): void {
  for (const visit of unfinished) {
    const known = history.find(visit.sessionId);
    // A visit that failed (mid-recording, or finishing for good) waits for Try again or Discard.
    const state =
      visit.failed || known?.state === 'failed'
        ? 'failed'
        : visit.state === 'recording'
          ? 'interrupted'
          : 'finishing';
    history.record({
      sessionId: visit.sessionId,
      encounterId: visit.encounterId,
      kind: visit.kind,
      startedAt: visit.startedAt,
      ...(visit.forms ? { formSessionId: visit.forms.sessionId } : {}),
      state,
      audioKept: true,
      // Its owner and consent as sealed at Start: History reads them from the seal alone.
      ...(visit.sealed ? { sealed: visit.sealed } : {}),
    });
  }
  for (const entry of history.list()) {
    if (!unfinished.some((v) => v.sessionId === entry.sessionId)) forgetAudio(history, entry.sessionId);
  }
}

/**
 * A visit History says has audio, whose spool lost its manifest, gets one again from its segments
 * (spool-manifest-rebuild.ts), so reconcileHistory finds it Interrupted rather than gone.
 */
export function repairSpoolManifests(
  history: EncounterHistory,
  spoolRoot: string,
  now: number,
  log: Logger,
): void {
  for (const entry of history.list()) {
    if (!entry.audioKept) continue;
    const legs = [
      { sessionId: entry.sessionId, kind: entry.kind },
      ...(entry.formSessionId
        ? [{ sessionId: entry.formSessionId, kind: 'form' as const, visitSessionId: entry.sessionId }]
        : []),
    ];
    for (const leg of legs) {
      const facts = {
        encounterId: entry.encounterId,
        createdAt: entry.startedAt,
        // A rebuilt manifest keeps where the visit may go, from History: its seal, which the
        // manifest's readers open (visit-seal.ts); one History cannot vouch for goes nowhere.
        ...(entry.deliverTo ? { deliverTo: entry.deliverTo } : {}),
        ...(entry.sealed ? { sealed: entry.sealed } : {}),
        ...leg,
      };
      const segments = rebuildSpoolManifest(join(spoolRoot, leg.sessionId), facts, now);
      // Counts only: no encounter id, no audio.
      if (segments !== undefined)
        log.warn('spool: manifest damaged; rebuilt from its segments', { segments });
    }
  }
}

/** The visit's audio is gone from this computer: nothing is left to finish. */
export function forgetAudio(history: EncounterHistory, sessionId: string): void {
  const entry = history.find(sessionId);
  if (!entry?.audioKept) return;
  const unfinished =
    entry.state === 'interrupted' || entry.state === 'finishing' || entry.state === 'recording';
  history.record({ sessionId, audioKept: false, ...(unfinished ? { state: 'failed' as const } : {}) });
}
