import { rmSync } from 'node:fs';
import type { HistoryEntry, Results, StartEncounter } from '../../../shared/contract';
import type { Clock, Logger } from '../ports';
import type { Poll } from '../results/results-poller';
import { continueAudioSpool, listAudioSpools, recoverAudioSpool } from '../spool/audio-spool';
import { spooledAudioLog } from '../spool/spooled-audio-log';
import { createStreamClient } from '../stream/stream-client';
import { UserFacingError } from '../user-facing-error';
import type { ServiceSession } from './service-session';
import { FINAL_STATES, endAndAwaitVerdict, fetchVisitResults } from './visit-results';

/** A visit whose spool outlived the app run that recorded it. */
export interface UnfinishedVisit {
  dir: string;
  sessionId: string;
  encounterId: string;
  kind: StartEncounter['kind'];
  startedAt: number;
}

export interface InterruptedVisitsDeps {
  spool?: { root: string; key(): Promise<Uint8Array> };
  clock: Clock;
  log: Logger;
  resultsPolling?: { firstDelayMs?: number; maxDelayMs?: number };
  onResultsProgress(progress: { sessionId: string; status: string; elapsedMs: number; done: boolean }): void;
  onVisit?(entry: Pick<HistoryEntry, 'sessionId'> & Partial<HistoryEntry>): void;
  /** The controller's own bookkeeping, shared so a finished visit is found like any other. */
  results: Map<string, Results>;
  polls: Map<string, Poll>;
  /** Whether this session is the one being recorded now (its spool is not interrupted). */
  isRecording(sessionId: string): boolean;
}

/**
 * Visits whose audio is still in their spool because the app stopped before the service had it
 * all (a crash, a kill, a power cut): History's "interrupted" visits, to finish or discard.
 */
export function createInterruptedVisits(deps: InterruptedVisitsDeps) {
  return {
    async list(): Promise<UnfinishedVisit[]> {
      if (!deps.spool) return [];
      return listAudioSpools(deps.spool.root)
        .filter(({ manifest }) => manifest.state === 'recording' || manifest.state === 'ended')
        .filter(
          ({ manifest }) => !deps.isRecording(manifest.sessionId) && !deps.polls.has(manifest.sessionId),
        )
        .map(({ dir, manifest }) => ({
          dir,
          sessionId: manifest.sessionId,
          encounterId: manifest.encounterId,
          kind: manifest.kind,
          startedAt: manifest.createdAt,
        }));
    },

    /**
     * Its spooled audio goes to the same service session from where the service's resume point
     * says (nothing twice, nothing missing), then EOF, end, and the results as after any End.
     * Progress and the end come as results.progress, like a live visit.
     */
    async finish(visit: UnfinishedVisit, session: ServiceSession): Promise<void> {
      if (!deps.spool)
        throw new UserFacingError('invalid_request', 'This app keeps no recordings to finish.');
      const key = await deps.spool.key();
      const recovered = recoverAudioSpool(visit.dir, key);
      if (recovered.problems.length > 0)
        deps.log.warn('spool: recovered with problems', { problems: recovered.problems.length });
      const spool = continueAudioSpool(
        { dir: visit.dir, key, sessionId: visit.sessionId, encounterId: visit.encounterId, kind: visit.kind },
        recovered,
      );
      const stream = createStreamClient({
        endpoint: session.connection.endpoint,
        sessionId: visit.sessionId,
        tokens: session.auth,
        clock: deps.clock,
        log: deps.log,
        audioLog: spooledAudioLog(spool),
      });
      const started = deps.clock.now();
      deps.onVisit?.({
        sessionId: visit.sessionId,
        encounterId: visit.encounterId,
        kind: visit.kind,
        startedAt: visit.startedAt,
        state: 'processing',
      });
      const verdict = (async () => {
        stream.connect();
        await stream.finish();
        spool.close();
        spool.setState('ended');
        stream.dispose();
        return endAndAwaitVerdict(session.rest, visit, {
          clock: deps.clock,
          ...(deps.resultsPolling ? { polling: deps.resultsPolling } : {}),
          onProgress: (p) => deps.onResultsProgress({ sessionId: visit.sessionId, ...p, done: false }),
          register: (poll) => deps.polls.set(visit.sessionId, poll),
        });
      })();
      void verdict.then(
        async (final) => {
          deps.results.set(visit.sessionId, await fetchVisitResults(session.rest, visit, final, undefined));
          if (final === 'completed' || final === 'skipped') spool.setState('delivered');
          deps.onVisit?.({
            sessionId: visit.sessionId,
            state: FINAL_STATES[final] ?? 'failed',
            status: final,
          });
          deps.onResultsProgress({
            sessionId: visit.sessionId,
            status: final,
            elapsedMs: deps.clock.now() - started,
            done: true,
          });
        },
        (error: unknown) => {
          stream.dispose();
          spool.close();
          deps.log.warn('an interrupted visit could not be finished', { error: (error as Error).message });
          deps.onVisit?.({ sessionId: visit.sessionId, state: 'interrupted' });
        },
      );
    },

    /** The clinician discards it: its audio is deleted. */
    discard(visit: UnfinishedVisit): void {
      rmSync(visit.dir, { recursive: true, force: true });
      deps.onVisit?.({ sessionId: visit.sessionId, state: 'cancelled' });
    },
  };
}
