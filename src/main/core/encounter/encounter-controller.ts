import type {
  AudioChunk,
  HistoryEntry,
  RecorderView,
  Results,
  StartEncounter,
} from '../../../shared/contract';
import type { RecorderTiming } from '../recorder/recorder-types';
import type { Clock, Logger } from '../ports';
import type { Poll } from '../results/results-poller';
import type { FormContextItem } from '../../../shared/service';
import type { ServiceSession } from './service-session';
import { UserFacingError } from '../user-facing-error';
import { createSpooledVisits, type SpoolDeps } from './spooled-visits';
import { deliverVisit, type DeliveryDeps, type DeliveryLeg } from './visit-delivery';
import { DISK_REFUSED_NOTICE, IDLE, toView } from './visit-view';
import { startedVisitRecord } from './visit-record';
import { openEncounter, type ActiveEncounter } from './open-encounter';
import { releaseLeg, type Leg } from './visit-leg';
import { legsOf, STOPPED, visitRecorders } from './visit-recorders';
import { FINAL_STATES, fetchEarlierVisit } from './visit-results';

export interface EncounterControllerDeps {
  clock: Clock;
  log: Logger;
  recorderTiming?: Partial<RecorderTiming>;
  /** Tests stretch polling to show that a notification, not a poll, brought the results. */
  resultsPolling?: { firstDelayMs?: number; maxDelayMs?: number };
  onRecorderChange(view: RecorderView): void;
  onResultsProgress: DeliveryDeps['onResultsProgress'];
  /**
   * Where each leg's audio is spooled, encrypted, before it counts as captured: one directory per
   * service session under `root`. Without it the audio lives in memory only (unit tests).
   */
  spool?: SpoolDeps;
  /** A visit started or changed state (for the History list; ids and times only). */
  onVisit?(entry: Pick<HistoryEntry, 'sessionId'> & Partial<HistoryEntry>): void;
}

/**
 * One encounter at a time: creates the session (with our own UUID so a retried create cannot make
 * two), posts its context, streams the renderer's chunks through the recorder, and after End waits
 * for the service and keeps the results for the result view.
 */
export function createEncounterController(deps: EncounterControllerDeps) {
  let active: ActiveEncounter | undefined;
  /** A Start is on its way (creating the service session): a second one must not make another. */
  let starting = false;
  /** Visits of this run after End, until the service's verdict: they go on while the next records. */
  const delivering = new Map<string, ActiveEncounter>();
  /** What the clinician last saw of a finished encounter, kept after its resources are released. */
  let finishedView: RecorderView | undefined;
  const results = new Map<string, Results>();
  const polls = new Map<string, Poll>();
  /** Sessions whose audio the disk refused: kept in memory from then on (onDiskFailure). */
  const diskFailures = new Set<string>();
  /** The app is stopping: deliveries of this run stop waiting (their spools resume them next run). */
  const stopping = new AbortController();
  const spooled = createSpooledVisits({
    ...deps,
    results,
    polls,
    isLive: (sessionId) =>
      [active, ...delivering.values()].some(
        (visit) =>
          visit && !visit.failed && (visit.sessionId === sessionId || visit.formLeg?.sessionId === sessionId),
      ),
  });

  function view(): RecorderView {
    if (!active) return finishedView ?? IDLE;
    return toView(active, active.recorder.state, diskNotice(active));
  }

  function diskNotice(encounter: ActiveEncounter): string | undefined {
    if (!legsOf(encounter).some((leg) => diskFailures.has(leg.sessionId))) return undefined;
    return DISK_REFUSED_NOTICE;
  }

  /**
   * `timing`: the clinician's settings for this encounter (the auto-pause delay); the timing the
   * controller was made with (tests) wins over it.
   */
  async function start(
    request: StartEncounter,
    session: ServiceSession,
    timing: Partial<RecorderTiming> = {},
  ): Promise<RecorderView> {
    const running = active && !active.ending && !STOPPED.has(active.recorder.state.state);
    if (running || starting) {
      throw new UserFacingError('invalid_request', 'A recording is already running. End or cancel it first.');
    }
    starting = true;
    try {
      const encounter = await openEncounter(deps, request, session, timing, onDiskFailure);
      // The visit before: an ended one goes on delivering on its own; a cancelled or failed one is let go.
      if (active && !active.ending) releaseLegs(active);
      active = encounter;
      deps.onVisit?.(
        startedVisitRecord(
          request,
          {
            sessionId: encounter.sessionId,
            formSessionId: encounter.formLeg?.sessionId,
            audioKept: encounter.spool !== undefined,
            deliverTo: encounter.deliverTo,
            ...(encounter.consent ? { consent: encounter.consent } : {}),
            ...(encounter.sealed ? { sealed: encounter.sealed } : {}),
          },
          deps.clock.now(),
        ),
      );
      // What the clinician sees is the main leg; the form leg follows the same chunks and verbs.
      let missingAudioMs = 0;
      encounter.recorder.onChange((snapshot) => {
        if (active === encounter) deps.onRecorderChange(toView(encounter, snapshot, diskNotice(encounter)));
        // Time without audio (a reload) is kept with the visit, not only shown while it records.
        if (snapshot.missingAudioMs !== missingAudioMs) {
          missingAudioMs = snapshot.missingAudioMs;
          deps.onVisit?.({ sessionId: encounter.sessionId, missingAudioMs });
        }
        if (snapshot.state === 'failed' && !encounter.ending && !encounter.failed) recordingFailed(encounter);
      });
      for (const leg of legsOf(encounter)) leg.recorder.start();
      return view();
    } finally {
      starting = false;
    }
  }

  /**
   * The stream failed for good mid-visit (the service ended or refused the session): the visit's
   * legs are let go and its audio waits in the spool, so History's Try again can send it.
   */
  function recordingFailed(encounter: ActiveEncounter): void {
    encounter.failed = true;
    deps.onVisit?.({ sessionId: encounter.sessionId, state: 'failed', endedAt: deps.clock.now() });
    // After this listener returns: the recorder is still reporting its failure.
    queueMicrotask(() => {
      for (const leg of legsOf(encounter)) {
        leg.stream.dispose();
        leg.spool?.close();
      }
    });
  }

  /**
   * The disk refused a leg's audio (full, failing): the rest of the visit is kept in memory, so it
   * still reaches the service, but it would not survive the app stopping. The clinician is told.
   */
  function onDiskFailure(sessionId: string): void {
    deps.log.error('spool: the disk refused audio; keeping the rest of the visit in memory', {});
    diskFailures.add(sessionId);
    if (active && legsOf(active).some((leg) => leg.sessionId === sessionId)) deps.onRecorderChange(view());
  }

  function releaseLegs(encounter: ActiveEncounter): void {
    for (const leg of legsOf(encounter)) releaseLeg(leg);
  }

  function requireActive(): ActiveEncounter {
    if (!active) throw new UserFacingError('invalid_request', 'No recording is running.');
    return active;
  }

  /**
   * End: the recorder sends what is left and EOF, then the service is told and polled. It goes on
   * by itself while the service cannot be reached ("finishing when online"), also after a restart
   * (the spool says 'finishing'), and the next visit can start meanwhile.
   */
  function end(): RecorderView {
    const encounter = requireActive();
    // A second End (a double click, the shortcut and the button) must not end the session twice.
    if (encounter.ending) return view();
    encounter.ending = true;
    // No more audio goes in: the last segment is made durable before the visit counts as ended, so
    // a power cut while it waits for the network costs nothing.
    for (const leg of legsOf(encounter)) {
      leg.spool?.close();
      leg.spool?.setState('finishing');
    }
    delivering.set(encounter.sessionId, encounter);
    const visitClock = encounter.recorder.visitClock;
    deps.onVisit?.({
      sessionId: encounter.sessionId,
      state: 'processing',
      endedAt: deps.clock.now(),
      // Kept with the visit's times, so a note opened again in a later run maps its transcript.
      ...(visitClock.length ? { visitClock } : {}),
    });
    const deliveryLeg = (leg: Leg): DeliveryLeg => ({
      kind: leg.kind,
      sessionId: leg.sessionId,
      spool: leg.spool,
      sendRest: () => leg.recorder.end(),
      stream: leg.stream,
      release: () => leg.stream.dispose(),
    });
    void deliverVisit(
      {
        sessionId: encounter.sessionId,
        kind: encounter.kind,
        main: deliveryLeg(encounter),
        forms: encounter.formLeg && deliveryLeg(encounter.formLeg),
        // Complete now: after End the recorder sends no audio it had not sent already.
        visitClock: encounter.recorder.visitClock,
      },
      {
        clock: deps.clock,
        log: deps.log,
        rest: encounter.session.rest,
        polling: deps.resultsPolling,
        signal: stopping.signal,
        registerPoll: (sessionId, poll) => polls.set(sessionId, poll),
        onResultsProgress: deps.onResultsProgress,
        ...(deps.onVisit ? { onVisit: deps.onVisit } : {}),
        onResults: (visitResults) => {
          results.set(encounter.sessionId, visitResults);
          // The visit is done: let go of its recorder and audio log, keep only what the view shows.
          if (active === encounter) {
            finishedView = view();
            active = undefined;
          }
          for (const leg of legsOf(encounter)) leg.recorder.dispose();
          delivering.delete(encounter.sessionId);
        },
      },
    );
    return view();
  }

  return {
    start,
    view,
    chunk: (chunk: AudioChunk): void => visitRecorders.chunk(requireActive(), chunk),
    attachCapture(): RecorderView {
      visitRecorders.attachCapture(requireActive());
      return view();
    },
    captureDetached(): void {
      if (active) visitRecorders.captureDetached(active);
    },
    /** protocol: Form filling (PATCH merges by item key) — a form added while recording. */
    async addForms(items: FormContextItem[]): Promise<void> {
      const encounter = requireActive();
      const formSession = encounter.kind === 'form' ? encounter.sessionId : encounter.formLeg?.sessionId;
      if (!formSession)
        throw new UserFacingError(
          'invalid_request',
          'Forms can be added only to a recording that started with forms.',
        );
      await encounter.session.rest.patchFormContext(formSession, items);
    },
    pause(): RecorderView {
      visitRecorders.pause(requireActive());
      return view();
    },
    resume(): RecorderView {
      visitRecorders.resume(requireActive());
      return view();
    },
    end,
    cancel(): RecorderView {
      const encounter = requireActive();
      if (encounter.ending)
        throw new UserFacingError('invalid_request', 'This visit has ended; it cannot be cancelled.');
      // The recorders stop taking and sending audio first, then the audio is deleted: discarded by
      // the clinician, nothing of the visit is kept, even if the service cannot be told now. The
      // service hears CANCEL when it can; nobody waits for that.
      const told = legsOf(encounter).map((leg) => leg.recorder.cancel());
      for (const leg of legsOf(encounter)) leg.spool?.discard();
      deps.onVisit?.({
        sessionId: encounter.sessionId,
        state: 'cancelled',
        endedAt: deps.clock.now(),
        audioKept: false,
      });
      void Promise.all(told)
        .then(() => {
          for (const leg of legsOf(encounter)) leg.stream.dispose();
        })
        .catch((error: unknown) =>
          deps.log.info('the service was not told of a cancelled visit', { error: (error as Error).message }),
        );
      return view();
    },
    /** A Start is creating its service sessions: they have no spool yet. */
    isStarting(): boolean {
      return starting;
    },
    /** Whether a session's audio is in use now: recording, or on its way to the service. */
    inUse(sessionId: string): boolean {
      const holds = (visit: ActiveEncounter | undefined) =>
        visit !== undefined && (visit.sessionId === sessionId || visit.formLeg?.sessionId === sessionId);
      return holds(active) || [...delivering.values()].some(holds) || spooled.inFlight(sessionId);
    },
    /** Whether this run of the app knows the session (recording, processing or done). */
    has(sessionId: string): boolean {
      return (
        results.has(sessionId) ||
        active?.sessionId === sessionId ||
        delivering.has(sessionId) ||
        polls.has(sessionId) ||
        spooled.inFlight(sessionId)
      );
    },
    /** The results of a session, once the service is done; until then its status. */
    results(sessionId: string): Results {
      const done = results.get(sessionId);
      if (done) return done;
      const live = active?.sessionId === sessionId ? active : delivering.get(sessionId);
      if (live || polls.has(sessionId) || spooled.inFlight(sessionId)) {
        return { sessionId, kind: live?.kind ?? 'ambient', status: 'processing', done: false };
      }
      throw new UserFacingError('invalid_request', 'This app has no results for that recording.');
    },
    /**
     * A visit from an earlier run of the app (History): its results are fetched from the service
     * again, since this device keeps no note text.
     */
    async reopen(entry: HistoryEntry, session: ServiceSession): Promise<Results> {
      const known = results.get(entry.sessionId);
      if (known) return known;
      const fetched = await fetchEarlierVisit(session.rest, entry);
      if (!fetched.done) return fetched;
      results.set(entry.sessionId, fetched);
      deps.onVisit?.({
        sessionId: entry.sessionId,
        state: FINAL_STATES[fetched.status] ?? 'failed',
        status: fetched.status,
      });
      return fetched;
    },
    /** Visits whose audio waits in their spool: listed, finished (or resumed), discarded. */
    spooled,
    /** The computer woke up or its network changed: every stream of this run tries again now. */
    reconnectAll(): void {
      for (const encounter of new Set([...(active ? [active] : []), ...delivering.values()]))
        for (const leg of legsOf(encounter)) leg.stream.reconnectNow();
      spooled.reconnectAll();
    },
    /** The computer is about to sleep: what is spooled so far is made durable now. */
    flushSpools(): void {
      for (const leg of active && !active.ending ? legsOf(active) : []) leg.spool?.close();
    },
    /** A notification said the service is done: check now instead of at the next poll. */
    wake(sessionId: string): void {
      polls.get(sessionId)?.wake();
    },
    dispose(): void {
      stopping.abort();
      spooled.dispose();
      for (const encounter of new Set([...(active ? [active] : []), ...delivering.values()]))
        releaseLegs(encounter);
    },
  };
}
