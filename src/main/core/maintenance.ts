import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Settings } from '../../shared/settings';
import type { createEncounterController } from './encounter/encounter-controller';
import type { ServiceSession } from './encounter/service-session';
import type { EncounterHistory } from './history/encounter-history';
import { forgetAudio } from './history/history-after-restart';
import type { createVisitNotes } from './notes/visit-notes';
import type { Clock, Logger } from './ports';
import type { createSignOutGate } from './privacy/sign-out-gate';
import type { createServiceLocator } from './service/service-locator';
import { sweepAudioSpools } from './spool/audio-spool';

/**
 * A delivered visit's audio stays this long (then the sweep deletes it) when it is not kept to play
 * back (settings' replayAudio off, or the note Finished); settings say the most.
 */
export const DELIVERED_AUDIO_GRACE_MS = 10 * 60_000;
const DAY_MS = 24 * 3_600_000;
/**
 * How often the core sweeps old audio and tries again to finish visits that were finishing when
 * the app stopped (the service may be back, or the clinician signed in meanwhile).
 */
export const MAINTENANCE_INTERVAL_MS = 60_000;

export interface MaintenanceDeps {
  /** Visits' audio, encrypted (spool/): one directory per visit under it. */
  spoolRoot: string;
  clock: Clock;
  log: Logger;
  settings: { get(): Settings };
  encounters: Pick<ReturnType<typeof createEncounterController>, 'inUse' | 'isStarting' | 'spooled'>;
  notes: Pick<ReturnType<typeof createVisitNotes>, 'sweep' | 'forget'>;
  history: EncounterHistory;
  locator: Pick<ReturnType<typeof createServiceLocator>, 'forgetDemoSessions'>;
  signOutGate: Pick<ReturnType<typeof createSignOutGate>, 'open'>;
  /** The service session of the clinician the app acts for now. */
  session(): Promise<ServiceSession>;
}

export interface Maintenance {
  /** A sweep of old audio and note edits, then another try at visits left finishing. */
  maintain(): void;
  /** Visits that were finishing when the app stopped: on their way again once the service answers. */
  resumeFinishing(): Promise<void>;
  /** No more sweeps, and no visit sent on its way after this. */
  stop(): void;
}

/**
 * The core's housekeeping, once at start and every MAINTENANCE_INTERVAL_MS after: old visit audio
 * and note edits go (delivered audio after a grace period, all of it after the retention the
 * settings give, a week unless changed), and visits left finishing try again.
 */
export function startMaintenance(deps: MaintenanceDeps): Maintenance {
  const { spoolRoot, settings, encounters, notes, history, locator, signOutGate, session } = deps;
  const sweep = () => {
    const removed = sweepAudioSpools(spoolRoot, deps.clock.now(), {
      graceMs: DELIVERED_AUDIO_GRACE_MS,
      maxAgeMs: settings.get().audioRetentionDays * DAY_MS,
      // A visit recording or on its way to the service keeps its audio, however old.
      inUse: (sessionId) => encounters.inUse(sessionId),
      // The recording of a visit with its note, to play a line back, until the note is Finished
      // (issue 38). Nothing else stays past the grace: a form-filling leg (Play reads the ambient
      // one), a visit without a note (nothing to Finish, nothing plays), a visit History does not
      // know (nobody's to play).
      keepDelivered: (manifest) => {
        if (!settings.get().replayAudio || manifest.kind !== 'ambient' || manifest.visitSessionId)
          return false;
        const entry = history.find(manifest.sessionId);
        return entry?.kind === 'ambient' && entry.status === 'completed' && entry.finishedAt === undefined;
      },
    });
    if (removed.length > 0) deps.log.info('spool: removed old visit audio', { visits: removed.length });
    // Unfinished edits are kept no longer than unfinished audio (the same retention).
    const edits = notes.sweep(settings.get().audioRetentionDays * DAY_MS);
    if (edits.length > 0) deps.log.info('notes: removed old note edits', { visits: edits.length });
    for (const sessionId of removed) forgetAudio(history, sessionId);
    // The built-in demo keeps a visit (its audio, context, note) no longer than its spool is here,
    // and a visit Finished (its spool deleted then) as long as a delivered one's spool stayed
    // before: the demo plays the service, whose copy is not the app's recording, and Undo and the
    // finished note's original need its note.
    const finishedLately = (sessionId: string) => {
      const deletedAt = history.find(sessionId)?.recordingDeletedAt;
      return deletedAt !== undefined && deps.clock.now() - deletedAt < DELIVERED_AUDIO_GRACE_MS;
    };
    void locator
      .forgetDemoSessions(
        (sessionId) =>
          encounters.isStarting() ||
          encounters.inUse(sessionId) ||
          existsSync(join(spoolRoot, sessionId)) ||
          finishedLately(sessionId),
      )
      .then(
        (forgotten) => {
          if (forgotten.length === 0) return;
          deps.log.info('demo: removed visits whose audio is gone', { visits: forgotten.length });
          // Its note cannot be opened any more: nothing of it stays here either (edits, patient).
          for (const sessionId of forgotten) {
            try {
              notes.forget(sessionId);
            } catch {
              // Not a visit's name (a stray file in the demo's folder): nothing of a note to forget.
            }
          }
        },
        (error: unknown) =>
          deps.log.warn('demo: removing old visits failed', { error: (error as Error).name }),
      );
  };
  /** Visits that were finishing when the app stopped: on their way again once the service answers. */
  let stopped = false;
  const resumeFinishing = async () => {
    // Signed out or locked: nothing is sent on the clinician's behalf until they are back.
    if (!signOutGate.open()) return;
    const current = await session().catch(() => undefined);
    // Signed in (or able to sign in by itself) and the service reachable: a token says both.
    const reachable = await current?.auth.current().then(
      () => true,
      () => false,
    );
    if (current && reachable && !stopped) await encounters.spooled.resumeFinishing(current);
  };
  const maintain = () => {
    try {
      sweep();
    } catch (error) {
      deps.log.warn('spool: sweep failed', { error: (error as Error).name });
    }
    void resumeFinishing();
  };
  maintain();
  const stopMaintenance = deps.clock.every(MAINTENANCE_INTERVAL_MS, maintain);
  return {
    maintain,
    resumeFinishing,
    stop() {
      stopped = true;
      stopMaintenance();
    },
  };
}
