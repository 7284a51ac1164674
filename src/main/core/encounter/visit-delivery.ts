import { existsSync } from 'node:fs';
import type { HistoryEntry, Results, StartEncounter } from '../../../shared/contract';
import type { VisitClock } from '../../../shared/visit-clock';
import type { Clock, Logger } from '../ports';
import type { Poll } from '../results/results-poller';
import { isRetryable } from '../service/rest-client-transport';
import { ServiceCallError } from '../service/service-error';
import type { AudioSpool } from '../spool/audio-spool';
import type { StreamLinkChange } from '../stream/stream-port';
import type { ServiceSession } from './service-session';
import { FINAL_STATES, endAndAwaitVerdict, fetchVisitResults } from './visit-results';

type Rest = ServiceSession['rest'];

/** One service session of a visit on its way to the service's verdict. */
export interface DeliveryLeg {
  kind: StartEncounter['kind'];
  sessionId: string;
  spool?: AudioSpool | undefined;
  /**
   * Sends the audio the service lacks, then EOF; resolves once the service has every byte (it
   * waits while offline). Absent when that happened before the app restarted (spool 'ended').
   */
  sendRest?(): Promise<void>;
  /** The leg's stream while sending: an offline link means "finishing when online". */
  stream?: {
    readonly link: StreamLinkChange;
    onLinkChange(listener: (change: StreamLinkChange) => void): () => void;
  };
  /** Lets go of the leg's stream and recorder: sending is over, or failed. */
  release(): void;
}

export interface VisitToDeliver {
  sessionId: string;
  kind: StartEncounter['kind'];
  main: DeliveryLeg;
  /** An ambient visit's form-filling session; its failure costs the forms, never the note. */
  forms?: DeliveryLeg | undefined;
  /** Where the main session's audio was captured on the visit clock, for its transcript's times. */
  visitClock?: VisitClock | undefined;
}

export interface DeliveryDeps {
  clock: Clock;
  log: Logger;
  rest: Rest;
  polling?: { firstDelayMs?: number; maxDelayMs?: number } | undefined;
  /** Waits between tries of a call the service could not take (it cannot be reached, or 5xx). */
  retry?: { firstDelayMs: number; maxDelayMs: number } | undefined;
  registerPoll(sessionId: string, poll: Poll): void;
  /** The app is stopping: waits end, and nothing more is recorded of the visit (it resumes next run). */
  signal?: AbortSignal | undefined;
  /** The visit's results (or its problem), before the progress report that says it is done. */
  onResults(results: Results): void;
  onResultsProgress(progress: {
    sessionId: string;
    status: string;
    elapsedMs: number;
    done: boolean;
    offline?: boolean;
  }): void;
  onVisit?(entry: Pick<HistoryEntry, 'sessionId'> & Partial<HistoryEntry>): void;
}

/** How long to wait between tries while the service cannot be reached (docs/reliability.md). */
export const DELIVERY_RETRY = { firstDelayMs: 1_000, maxDelayMs: 30_000 };

/**
 * After End (or Finish in History, or at start for a visit that was finishing when the app
 * stopped): the rest of the audio, the end of the session, the service's verdict and the results.
 * While the service cannot be reached the visit is "finishing when online" and every step is
 * tried again until it can; only an answer that retrying cannot change fails the visit, whose
 * audio then stays in its spool for another try.
 */
export async function deliverVisit(visit: VisitToDeliver, deps: DeliveryDeps): Promise<void> {
  const started = deps.clock.now();
  const offline = offlineTracker((isOffline) => {
    deps.onVisit?.({ sessionId: visit.sessionId, state: isOffline ? 'finishing' : 'processing' });
    deps.onResultsProgress({
      sessionId: visit.sessionId,
      status: isOffline ? 'offline' : 'processing',
      elapsedMs: deps.clock.now() - started,
      done: false,
      offline: isOffline,
    });
  });
  const done = (status: string) =>
    deps.onResultsProgress({
      sessionId: visit.sessionId,
      status,
      elapsedMs: deps.clock.now() - started,
      done: true,
    });

  const main = deliverLeg(visit.main, deps, offline.reporter(), (p) =>
    deps.onResultsProgress({ sessionId: visit.sessionId, ...p, done: false }),
  );
  const forms = visit.forms
    ? deliverLeg(visit.forms, deps, offline.reporter()).catch((error: unknown) => {
        deps.log.warn('the forms could not finish', { error: (error as Error).message });
        return 'failed';
      })
    : undefined;
  const legs = visit.forms ? [visit.main, visit.forms] : [visit.main];
  let verdictReached = false;
  try {
    const final = await main;
    verdictReached = true;
    const formsFinal = await forms;
    // Only once both sessions have their verdict is the visit's audio no longer needed: the app
    // stopping before this resumes both (ending an ended session again is harmless).
    for (const leg of legs) leg.spool?.setState('delivered');
    const report = offline.reporter();
    const results = await whileUnreachable(
      () =>
        fetchVisitResults(deps.rest, { ...visit, formSessionId: visit.forms?.sessionId }, final, formsFinal),
      deps,
      report,
    );
    deps.onResults(results);
    deps.onVisit?.({
      sessionId: visit.sessionId,
      state: FINAL_STATES[final] ?? 'failed',
      status: final,
      audioKept: false,
    });
    done(final);
  } catch (error) {
    await forms;
    // The app is stopping: the visit is not failed; its spool resumes it next run.
    if (deps.signal?.aborted) return;
    deps.log.warn('the visit could not finish', { error: (error as Error)?.name ?? 'unknown' });
    const reason =
      error instanceof ServiceCallError ? error.sentence : 'The app could not finish this visit.';
    // Before the service's verdict the audio is still worth sending again; after it, it is not.
    // It waits for the clinician (Try again or Discard) rather than being retried by itself.
    const spool = visit.main.spool;
    const kept = spool !== undefined && !verdictReached && existsSync(spool.dir);
    if (kept) for (const leg of legs) leg.spool?.setFailed(true);
    deps.onResults({
      sessionId: visit.sessionId,
      kind: visit.kind,
      status: 'failed',
      done: true,
      problem: kept ? `${reason} The visit's audio stays on this computer: try again from History.` : reason,
    });
    deps.onVisit?.({ sessionId: visit.sessionId, state: 'failed', audioKept: kept });
    done('failed');
  }
}

/**
 * One leg: the rest of its audio (the spool says 'finishing' until the service has all of it,
 * then 'ended'), the end of its session, and the service's verdict.
 */
async function deliverLeg(
  leg: DeliveryLeg,
  deps: DeliveryDeps,
  offline: (isOffline: boolean) => void,
  onProgress?: (progress: { status: string; elapsedMs: number }) => void,
): Promise<string> {
  if (leg.sendRest) {
    // Offline already (End pressed during an outage), or later while the backlog goes out.
    const report = (change: StreamLinkChange) => offline(change.state === 'offline');
    if (leg.stream) report(leg.stream.link);
    const unsubscribe = leg.stream?.onLinkChange(report);
    try {
      await leg.sendRest();
    } finally {
      unsubscribe?.();
      leg.release();
      // No more audio goes in or out: the segment is fsynced and its files closed, also on failure.
      leg.spool?.close();
    }
    offline(false);
    leg.spool?.setState('ended');
  } else {
    leg.release();
  }
  const final = await endAndAwaitVerdict(
    {
      ...deps.rest,
      endAmbientSession: (id) =>
        whileUnreachable(() => endOnce(deps.rest.endAmbientSession(id)), deps, offline),
      endFormSession: (id) => whileUnreachable(() => endOnce(deps.rest.endFormSession(id)), deps, offline),
      ambientStatus: (id) => reportingReachability(deps.rest.ambientStatus(id), offline),
      formStatus: (id) => reportingReachability(deps.rest.formStatus(id), offline),
    },
    leg,
    {
      clock: deps.clock,
      ...(deps.polling ? { polling: deps.polling } : {}),
      ...(onProgress ? { onProgress } : {}),
      register: (poll) => deps.registerPoll(leg.sessionId, poll),
      ...(deps.signal ? { signal: deps.signal } : {}),
    },
  );
  return final;
}

/**
 * The session was already ended: a retry after the service took the first end but its answer was
 * lost, or a restart between the two. The verdict is what matters, and polling gets it.
 */
async function endOnce(call: Promise<void>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ServiceCallError && error.id === 'invalid_end_session_request') return;
    throw error;
  }
}

/** Tries `call` until the service can be reached; reports being offline meanwhile. */
export async function whileUnreachable<T>(
  call: () => Promise<T>,
  deps: Pick<DeliveryDeps, 'clock' | 'log' | 'retry' | 'signal'>,
  offline: (isOffline: boolean) => void,
): Promise<T> {
  const policy = deps.retry ?? DELIVERY_RETRY;
  let delay = policy.firstDelayMs;
  for (;;) {
    if (deps.signal?.aborted) throw new Error('the app is stopping');
    try {
      const value = await call();
      offline(false);
      return value;
    } catch (error) {
      if (!isRetryable(error)) throw error;
      offline(true);
      deps.log.info('the service cannot be reached; trying again', { inMs: delay });
      await new Promise<void>((resolve) => {
        const cancel = deps.clock.after(delay, resolve);
        deps.signal?.addEventListener('abort', () => (cancel(), resolve()), { once: true });
      });
      delay = Math.min(policy.maxDelayMs, delay * 2);
    }
  }
}

async function reportingReachability<T>(call: Promise<T>, offline: (isOffline: boolean) => void): Promise<T> {
  try {
    const value = await call;
    offline(false);
    return value;
  } catch (error) {
    if (isRetryable(error)) offline(true);
    throw error;
  }
}

/**
 * The visit is offline while any of its parts is (the note's and the forms' sessions, each call):
 * `onChange` hears only the transitions.
 */
function offlineTracker(onChange: (isOffline: boolean) => void) {
  const parts = new Set<number>();
  let next = 0;
  let shown = false;
  return {
    reporter(): (isOffline: boolean) => void {
      const id = next++;
      return (isOffline) => {
        if (isOffline) parts.add(id);
        else parts.delete(id);
        const now = parts.size > 0;
        if (now !== shown) {
          shown = now;
          onChange(now);
        }
      };
    },
  };
}
