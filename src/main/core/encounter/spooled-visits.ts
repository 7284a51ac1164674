import { rmSync } from 'node:fs';
import type { HistoryEntry, Results, StartEncounter } from '../../../shared/contract';
import type { Clock, Logger } from '../ports';
import type { Poll } from '../results/results-poller';
import {
  continueAudioSpool,
  listAudioSpools,
  recoverAudioSpool,
  SpoolKeyError,
  type SpoolManifest,
  type SpoolState,
} from '../spool/audio-spool';
import { spooledAudioLog } from '../spool/spooled-audio-log';
import { createStreamClient, type StreamClient } from '../stream/stream-client';
import { UserFacingError } from '../user-facing-error';
import type { VisitSeal } from '../sealed/visit-seal';
import { describeTarget, sameTarget, type DeliveryTarget } from '../../../shared/delivery-target';
import { deliveryTargetOf, type ServiceSession } from './service-session';
import { deliverVisit, type DeliveryDeps, type DeliveryLeg } from './visit-delivery';

/** One service session of an unfinished visit, as its spool describes it. */
interface SpooledLeg {
  dir: string;
  sessionId: string;
  kind: StartEncounter['kind'];
  state: SpoolState;
}

/** A visit whose audio is in its spool and not yet with the service (from this run or an earlier one). */
export interface UnfinishedVisit {
  sessionId: string;
  encounterId: string;
  kind: StartEncounter['kind'];
  startedAt: number;
  /**
   * 'recording': the app stopped mid-visit (interrupted: the clinician finishes or discards it).
   * 'finishing' or 'ended': End or Finish was pressed; it finishes by itself when it can.
   */
  state: SpoolState;
  /** Finishing failed for a reason retrying alone cannot change: it waits for Try again or Discard. */
  failed: boolean;
  /**
   * Its owner (the service and account it was recorded for), from its seal alone: none when the
   * manifest's seal is missing or does not open (edited, another key, an earlier version).
   */
  deliverTo?: DeliveryTarget;
  /** The seal as the manifest keeps it, for History (visit-seal.ts). */
  sealed?: string;
  main: SpooledLeg;
  forms?: SpooledLeg;
}

/**
 * Where each leg's audio is spooled, encrypted: one directory per session under `root`, sealed with
 * `key` (spool-key.ts), and the visit seal (visit-seal.ts) that vouches for each spool's owner.
 */
export interface SpoolDeps {
  root: string;
  key(): Promise<Uint8Array>;
  /** Opens the seals of spools and History; fails closed while the key is not to be had. */
  visitSeal(): VisitSeal;
}

export interface SpooledVisitsDeps {
  spool?: SpoolDeps;
  clock: Clock;
  log: Logger;
  resultsPolling?: { firstDelayMs?: number; maxDelayMs?: number };
  onResultsProgress: DeliveryDeps['onResultsProgress'];
  onVisit?(entry: Pick<HistoryEntry, 'sessionId'> & Partial<HistoryEntry>): void;
  /** The controller's own bookkeeping, shared so a finished visit is found like any other. */
  results: Map<string, Results>;
  polls: Map<string, Poll>;
  /** Whether this session belongs to a visit the controller holds now (recording, or after End). */
  isLive(sessionId: string): boolean;
}

/** Why a visit is not sent here: where it belongs, and what would send it. */
export function elsewhereSentence(target: DeliveryTarget | undefined): string {
  if (target?.model === undefined) return NO_OWNER;
  return `This visit was recorded for ${describeTarget(target)}. It is sent only there: sign in as that provider on that service to finish it. Its audio stays on this computer until then, or until it is discarded.`;
}

/** A spool whose seal does not say whose it is (missing, edited, another key, or a version before issue 39). */
const NO_OWNER =
  'This visit’s records do not say where its audio goes, so it is sent nowhere: it stays on this computer, sealed, until the retention sweep removes it.';

const UNFINISHED: ReadonlySet<SpoolState> = new Set(['recording', 'finishing', 'ended']);

const KEY_GONE =
  "This visit's audio cannot be read on this computer any more: the key that protected it is gone (this happens when the computer has no keyring and the app restarted). Discard it and record the visit again.";

/**
 * Visits whose audio is still in their spool because the service does not have it all: the app
 * stopped mid-visit (a crash, a kill, a power cut: History's Interrupted, to finish or discard),
 * End was pressed while offline and the app stopped (they finish by themselves once the service
 * can be reached), or finishing failed (Try again or Discard).
 */
export function createSpooledVisits(deps: SpooledVisitsDeps) {
  /** Visits on their way to the service now, with their streams: a second Finish does nothing. */
  const inFlight = new Map<string, StreamClient[]>();
  /** The app is stopping: deliveries wait no more, and none starts. */
  const stopping = new AbortController();

  /** The owner the manifest's seal vouches for (never its plain `deliverTo`, a file anyone can edit). */
  function sealedFacts(manifest: SpoolManifest): Pick<UnfinishedVisit, 'deliverTo' | 'sealed'> {
    const facts = deps.spool?.visitSeal().open(manifest.sessionId, manifest.sealed);
    // One that does not open is not passed on: History keeps its own (history-after-restart.ts).
    return facts ? { sealed: manifest.sealed!, deliverTo: facts.deliverTo } : {};
  }

  function list(): UnfinishedVisit[] {
    if (!deps.spool) return [];
    const spools = listAudioSpools(deps.spool.root).filter(({ manifest }) => UNFINISHED.has(manifest.state));
    const legOf = (dir: string, manifest: SpoolManifest): SpooledLeg => ({
      dir,
      sessionId: manifest.sessionId,
      kind: manifest.kind,
      state: manifest.state,
    });
    return spools
      .filter(({ manifest }) => manifest.visitSessionId === undefined)
      .filter(({ manifest }) => !deps.isLive(manifest.sessionId))
      .map(({ dir, manifest }) => {
        const forms = spools.find((s) => s.manifest.visitSessionId === manifest.sessionId);
        return {
          sessionId: manifest.sessionId,
          encounterId: manifest.encounterId,
          kind: manifest.kind,
          startedAt: manifest.createdAt,
          state: manifest.state,
          failed: manifest.failedAt !== undefined,
          ...sealedFacts(manifest),
          main: legOf(dir, manifest),
          ...(forms ? { forms: legOf(forms.dir, forms.manifest) } : {}),
        };
      });
  }

  /** The leg's spool read back; what the service lacks goes from it, from the service's resume point. */
  function reopenLeg(leg: SpooledLeg, visit: UnfinishedVisit, key: Uint8Array, session: ServiceSession) {
    let recovered;
    try {
      recovered = recoverAudioSpool(leg.dir, key);
    } catch (error) {
      if (error instanceof SpoolKeyError) throw new UserFacingError('invalid_request', KEY_GONE);
      throw error;
    }
    if (recovered.problems.length > 0)
      deps.log.warn('spool: recovered with problems', { problems: recovered.problems.length });
    const spool = continueAudioSpool(
      {
        dir: leg.dir,
        key,
        sessionId: leg.sessionId,
        encounterId: visit.encounterId,
        kind: leg.kind,
        visitSessionId: leg === visit.main ? undefined : visit.sessionId,
        now: () => deps.clock.now(),
      },
      recovered,
    );
    if (leg.state === 'ended') return { leg, spool, stream: undefined };
    const stream = createStreamClient({
      endpoint: session.connection.endpoint,
      sessionId: leg.sessionId,
      tokens: session.auth,
      clock: deps.clock,
      log: deps.log,
      audioLog: spooledAudioLog(spool),
    });
    return { leg, spool, stream };
  }

  function deliveryLeg({ leg, spool, stream }: ReturnType<typeof reopenLeg>): DeliveryLeg {
    // From now on the visit finishes by itself, also after another restart.
    spool.setFailed(false);
    if (leg.state !== 'ended') spool.setState('finishing');
    return {
      kind: leg.kind,
      sessionId: leg.sessionId,
      spool,
      ...(stream
        ? {
            sendRest: () => {
              stream.connect();
              return stream.finish();
            },
            stream,
          }
        : {}),
      release: () => stream?.dispose(),
    };
  }

  /**
   * Its spooled audio goes to the same service sessions from where the service's resume point
   * says (nothing twice, nothing missing), then EOF, end, and the results as after any End.
   * Progress and the end come as results.progress, like a live visit. Resolves once delivery has
   * begun; a second call for a visit already on its way does nothing.
   */
  async function finish(visit: UnfinishedVisit, session: ServiceSession): Promise<void> {
    if (!deps.spool) throw new UserFacingError('invalid_request', 'This app keeps no recordings to finish.');
    if (inFlight.has(visit.sessionId) || stopping.signal.aborted) return;
    inFlight.set(visit.sessionId, []);
    try {
      await refuseElsewhere(visit, session);
      const key = await deps.spool.key();
      const reopened = [visit.main, ...(visit.forms ? [visit.forms] : [])].map((leg) =>
        reopenLeg(leg, visit, key, session),
      );
      inFlight.set(
        visit.sessionId,
        reopened.flatMap((r) => (r.stream ? [r.stream] : [])),
      );
      const [main, forms] = reopened.map(deliveryLeg);
      // Kept by the run that recorded the visit (none in an older or rebuilt manifest).
      const visitClock = reopened[0]?.spool.visitClock;
      deps.onVisit?.({
        sessionId: visit.sessionId,
        encounterId: visit.encounterId,
        kind: visit.kind,
        startedAt: visit.startedAt,
        state: 'processing',
        audioKept: true,
        ...(visitClock?.length ? { visitClock } : {}),
        ...(visit.deliverTo ? { deliverTo: visit.deliverTo } : {}),
      });
      void deliverVisit(
        { sessionId: visit.sessionId, kind: visit.kind, main: main!, forms, visitClock },
        {
          clock: deps.clock,
          log: deps.log,
          rest: session.rest,
          polling: deps.resultsPolling,
          signal: stopping.signal,
          registerPoll: (sessionId, poll) => deps.polls.set(sessionId, poll),
          onResults: (results) => deps.results.set(visit.sessionId, results),
          onResultsProgress: deps.onResultsProgress,
          ...(deps.onVisit ? { onVisit: deps.onVisit } : {}),
        },
      )
        .catch((error: unknown) =>
          deps.log.error('delivering a visit failed', { error: (error as Error).name }),
        )
        .finally(() => inFlight.delete(visit.sessionId));
    } catch (error) {
      inFlight.delete(visit.sessionId);
      // Nothing can be sent without the key: the visit waits for Discard, and History says so.
      if (error instanceof UserFacingError && error.message === KEY_GONE)
        deps.onVisit?.({ sessionId: visit.sessionId, state: 'failed', audioKept: true });
      throw error;
    }
  }

  /**
   * A visit goes only to the service, partner, provider and sign-in model it was recorded for
   * (issues 28 and 39): a changed address, another clinician signed in, or a spool whose seal does
   * not say where it goes leaves it waiting with its audio, and says so.
   */
  async function refuseElsewhere(visit: UnfinishedVisit, session: ServiceSession): Promise<void> {
    if (visit.deliverTo === undefined) throw new UserFacingError('invalid_request', NO_OWNER);
    // A standard partner's provider is who signed in at the identity provider: sign in first.
    if (session.connection.authModel === 'standard') await session.auth.current();
    if (sameTarget(visit.deliverTo, deliveryTargetOf(session))) return;
    throw new UserFacingError('invalid_request', elsewhereSentence(visit.deliverTo));
  }

  return {
    list,
    finish,
    /** Whether this visit is on its way to the service now (its session is in use). */
    inFlight: (sessionId: string) => inFlight.has(sessionId),

    /**
     * Visits that were finishing when the app stopped go on by themselves (no clinician needed);
     * a visit that failed for good waits for the clinician instead.
     */
    async resumeFinishing(session: ServiceSession): Promise<void> {
      const here = deliveryTargetOf(session);
      // Another owner's visits wait for theirs, their audio kept; one that names none, for nobody.
      const mine = (v: UnfinishedVisit) => v.deliverTo !== undefined && sameTarget(v.deliverTo, here);
      for (const visit of list().filter((v) => v.state !== 'recording' && !v.failed && mine(v))) {
        await finish(visit, session).catch((error: unknown) =>
          deps.log.warn('a visit could not resume finishing', { error: (error as Error).name }),
        );
      }
    },

    /** The computer woke up: streams of visits on their way try again now. */
    reconnectAll(): void {
      for (const streams of inFlight.values()) for (const stream of streams) stream.reconnectNow();
    },

    /** The clinician discards it: its audio is deleted. */
    discard(visit: UnfinishedVisit): void {
      if (inFlight.has(visit.sessionId)) {
        throw new UserFacingError(
          'invalid_request',
          'This visit is being sent to the service right now, so it cannot be discarded.',
        );
      }
      for (const leg of visit.forms ? [visit.main, visit.forms] : [visit.main])
        rmSync(leg.dir, { recursive: true, force: true });
      deps.onVisit?.({ sessionId: visit.sessionId, state: 'cancelled', audioKept: false });
    },

    /** The app stops: deliveries stop where they are (their spools resume them next run). */
    dispose(): void {
      stopping.abort();
      for (const streams of inFlight.values()) for (const stream of streams) stream.dispose();
    },
  };
}
export type SpooledVisits = ReturnType<typeof createSpooledVisits>;
