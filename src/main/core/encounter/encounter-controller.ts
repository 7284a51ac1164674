import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type {
  AudioChunk,
  HistoryEntry,
  RecorderView,
  Results,
  StartEncounter,
} from '../../../shared/contract';
import { createRecorder, type Recorder } from '../recorder/recorder';
import type { RecorderTiming } from '../recorder/recorder-types';
import { describeRecorder, type RecorderSnapshot } from '../recorder/recorder-view';
import type { Clock, Logger } from '../ports';
import type { Poll } from '../results/results-poller';
import { createStreamClient, type StreamClient } from '../stream/stream-client';
import type { FormContextItem } from '../../../shared/service';
import type { ServiceSession } from './service-session';
import { UserFacingError } from '../user-facing-error';
import { ServiceCallError } from '../service/service-error';
import { createAudioSpool, type AudioSpool } from '../spool/audio-spool';
import { spooledAudioLog } from '../spool/spooled-audio-log';
import { createInterruptedVisits } from './interrupted-visits';
import { FINAL_STATES, endAndAwaitVerdict, fetchVisitResults } from './visit-results';

/** One service session fed the visit's audio: its own stream and recorder. */
interface Leg {
  kind: StartEncounter['kind'];
  sessionId: string;
  recorder: Recorder;
  stream: StreamClient;
  /** The leg's audio on disk, when the core keeps a spool (issue 7). */
  spool?: AudioSpool;
}

/**
 * A visit. Its main leg is the session the clinician asked for; an ambient visit with forms has a
 * second, form-filling leg that gets the same chunks, pauses and End (the service keeps ambient and
 * form-filling sessions apart, docs/protocol.md).
 */
interface ActiveEncounter extends Leg {
  encounterId: string;
  session: ServiceSession;
  formLeg?: Leg;
  /** End was pressed (once is enough). */
  ending?: boolean;
}

export interface EncounterControllerDeps {
  clock: Clock;
  log: Logger;
  recorderTiming?: Partial<RecorderTiming>;
  /** Tests stretch polling to show that a notification, not a poll, brought the results. */
  resultsPolling?: { firstDelayMs?: number; maxDelayMs?: number };
  onRecorderChange(view: RecorderView): void;
  onResultsProgress(progress: { sessionId: string; status: string; elapsedMs: number; done: boolean }): void;
  /**
   * Where each leg's audio is spooled, encrypted, before it counts as captured: one directory per
   * service session under `root`. Without it the audio lives in memory only (unit tests).
   */
  spool?: { root: string; key(): Promise<Uint8Array> };
  /** A visit started or changed state (for the History list; ids and times only). */
  onVisit?(entry: Pick<HistoryEntry, 'sessionId'> & Partial<HistoryEntry>): void;
}

const IDLE: RecorderView = { state: 'idle', elapsedMs: 0, speech: false, backlogMs: 0 };

/**
 * One encounter at a time: creates the session (with our own UUID so a retried create cannot make
 * two), posts its context, streams the renderer's chunks through the recorder, and after End waits
 * for the service and keeps the results for the result view.
 */
export function createEncounterController(deps: EncounterControllerDeps) {
  let active: ActiveEncounter | undefined;
  /** What the clinician last saw of a finished encounter, kept after its resources are released. */
  let finishedView: RecorderView | undefined;
  const results = new Map<string, Results>();
  const polls = new Map<string, Poll>();
  const interrupted = createInterruptedVisits({
    ...deps,
    results,
    polls,
    isRecording: (sessionId) => active?.sessionId === sessionId,
  });

  function view(): RecorderView {
    if (!active) return finishedView ?? IDLE;
    return toView(active, active.recorder.state);
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
    if (active && !['ended', 'cancelled', 'failed'].includes(active.recorder.state.state)) {
      throw new UserFacingError('invalid_request', 'A recording is already running. End or cancel it first.');
    }
    await session.auth.current();
    const spoolKey = deps.spool ? await deps.spool.key() : undefined;
    const legFor = (kind: Leg['kind'], id: string) =>
      openLeg(kind, id, session, timing, { encounterId: request.encounterId, key: spoolKey });
    const sessionId =
      request.kind === 'ambient'
        ? await session.rest.createAmbientSession(request.encounterId, randomUUID())
        : await session.rest.createFormSession(request.encounterId);
    // protocol: Ambient session (post context before opening the stream)
    if (request.kind === 'ambient' && request.context)
      await session.rest.postAmbientContext(sessionId, request.context);
    if (request.kind === 'form') await session.rest.postFormContext(sessionId, request.formItems);
    let formLeg: Leg | undefined;
    if (request.kind === 'ambient' && request.formItems?.length) {
      const formSessionId = await session.rest.createFormSession(request.encounterId);
      await session.rest.postFormContext(formSessionId, request.formItems);
      formLeg = legFor('form', formSessionId);
    }

    const encounter: ActiveEncounter = {
      ...legFor(request.kind, sessionId),
      encounterId: request.encounterId,
      session,
      ...(formLeg ? { formLeg } : {}),
    };
    active = encounter;
    deps.onVisit?.({
      encounterId: request.encounterId,
      sessionId,
      ...(formLeg ? { formSessionId: formLeg.sessionId } : {}),
      kind: request.kind,
      state: 'recording',
      startedAt: deps.clock.now(),
    });
    // What the clinician sees is the main leg; the form leg follows the same chunks and verbs.
    encounter.recorder.onChange((snapshot) => {
      deps.onRecorderChange(toView(encounter, snapshot));
      if (snapshot.state === 'failed')
        deps.onVisit?.({ sessionId, state: 'failed', endedAt: deps.clock.now() });
    });
    for (const leg of legsOf(encounter)) leg.recorder.start();
    return view();
  }

  function openLeg(
    kind: Leg['kind'],
    sessionId: string,
    session: ServiceSession,
    timing: Partial<RecorderTiming>,
    spooling: { encounterId: string; key: Uint8Array | undefined },
  ): Leg {
    const spool =
      deps.spool && spooling.key
        ? createAudioSpool({
            dir: join(deps.spool.root, sessionId),
            key: spooling.key,
            sessionId,
            encounterId: spooling.encounterId,
            kind,
            now: () => deps.clock.now(),
          })
        : undefined;
    const stream = createStreamClient({
      endpoint: session.connection.endpoint,
      sessionId,
      tokens: session.auth,
      clock: deps.clock,
      log: deps.log,
      ...(spool
        ? {
            // TODO(wire): notice (the disk refused audio; it is kept in memory only from now on)
            audioLog: spooledAudioLog(spool, { onWriteFailure: () => {} }),
          }
        : {}),
    });
    const recorder = createRecorder({
      stream,
      clock: deps.clock,
      log: deps.log,
      timing: { ...timing, ...deps.recorderTiming },
    });
    return { kind, sessionId, recorder, stream, ...(spool ? { spool } : {}) };
  }

  function requireActive(): ActiveEncounter {
    if (!active) throw new UserFacingError('invalid_request', 'No recording is running.');
    return active;
  }

  /** End: the recorder sends what is left and EOF, then the service is told and polled. */
  async function end(): Promise<RecorderView> {
    const encounter = requireActive();
    // A second End (a double click, the shortcut and the button) must not end the session twice.
    if (encounter.ending) return view();
    encounter.ending = true;
    const started = deps.clock.now();
    deps.onVisit?.({ sessionId: encounter.sessionId, state: 'processing', endedAt: started });
    const main = finishLeg(encounter, encounter, (p) =>
      deps.onResultsProgress({ sessionId: encounter.sessionId, ...p, done: false }),
    );
    // A form leg that cannot finish costs the forms, never the note.
    const forms = encounter.formLeg
      ? finishLeg(encounter, encounter.formLeg).catch((error: unknown) => {
          deps.log.warn('the forms could not finish', { error: (error as Error).message });
          return 'failed';
        })
      : undefined;
    void main
      .then(async (final) => afterEnd(encounter, final, await forms, started))
      .catch((error: unknown) => endFailed(encounter, error, started));
    return view();
  }

  /** Sends what is left and EOF, tells the service the leg ended, and waits for its final status. */
  async function finishLeg(
    encounter: ActiveEncounter,
    leg: Leg,
    onProgress?: (progress: { status: string; elapsedMs: number }) => void,
  ): Promise<string> {
    await leg.recorder.end();
    // Every byte is with the service; the spool stays until the note is delivered.
    leg.spool?.close();
    leg.spool?.setState('ended');
    leg.stream.dispose();
    const final = await endAndAwaitVerdict(encounter.session.rest, leg, {
      clock: deps.clock,
      ...(deps.resultsPolling ? { polling: deps.resultsPolling } : {}),
      ...(onProgress ? { onProgress } : {}),
      register: (poll) => polls.set(leg.sessionId, poll),
    });
    // Delivered (a note, or the service's verdict that there is none): the retention sweep removes
    // the audio after its grace period. A failed session keeps it.
    if (final === 'completed' || final === 'skipped') leg.spool?.setState('delivered');
    return final;
  }

  async function afterEnd(
    encounter: ActiveEncounter,
    final: string,
    formsFinal: string | undefined,
    started: number,
  ): Promise<void> {
    const visit = { ...encounter, formSessionId: encounter.formLeg?.sessionId };
    results.set(
      encounter.sessionId,
      await fetchVisitResults(encounter.session.rest, visit, final, formsFinal),
    );
    deps.onVisit?.({ sessionId: encounter.sessionId, state: FINAL_STATES[final] ?? 'failed', status: final });
    // The visit is done: let go of its recorder and audio log, keep only what the view shows.
    if (active === encounter) {
      finishedView = view();
      for (const leg of legsOf(encounter)) leg.recorder.dispose();
      active = undefined;
    }
    deps.onResultsProgress({
      sessionId: encounter.sessionId,
      status: final,
      elapsedMs: deps.clock.now() - started,
      done: true,
    });
  }

  /**
   * The end of a visit failed (the service could not be told, polled or read): the clinician gets
   * a sentence and the visit shows as failed in History. Without this the results card would wait
   * for ever.
   */
  function endFailed(encounter: ActiveEncounter, error: unknown, started: number): void {
    deps.log.warn('the recording could not finish', { error: (error as Error)?.name ?? 'unknown' });
    const reason =
      error instanceof ServiceCallError ? error.sentence : 'The app could not finish this visit.';
    results.set(encounter.sessionId, {
      sessionId: encounter.sessionId,
      kind: encounter.kind,
      status: 'failed',
      done: true,
      // Retrying the upload from History is issue 7's; until then the sentence promises no more.
      problem: `${reason} The visit's audio stays on this computer for up to 7 days.`,
    });
    deps.onVisit?.({ sessionId: encounter.sessionId, state: 'failed' });
    deps.onResultsProgress({
      sessionId: encounter.sessionId,
      status: 'failed',
      elapsedMs: deps.clock.now() - started,
      done: true,
    });
  }

  return {
    start,
    view,
    chunk(chunk: AudioChunk): void {
      for (const leg of legsOf(requireActive())) leg.recorder.pushChunk(chunk);
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
      for (const leg of legsOf(requireActive())) leg.recorder.pause();
      return view();
    },
    resume(): RecorderView {
      for (const leg of legsOf(requireActive())) leg.recorder.resume();
      return view();
    },
    end,
    async cancel(): Promise<RecorderView> {
      const encounter = requireActive();
      // Discarded by the clinician: nothing of the visit is kept, even if the service cannot be
      // told right now (cancelling there waits for it).
      for (const leg of legsOf(encounter)) leg.spool?.discard();
      deps.onVisit?.({ sessionId: encounter.sessionId, state: 'cancelled', endedAt: deps.clock.now() });
      for (const leg of legsOf(encounter)) {
        await leg.recorder.cancel();
        leg.stream.dispose();
      }
      return view();
    },
    /** Whether this run of the app knows the session (recording, processing or done). */
    has(sessionId: string): boolean {
      return results.has(sessionId) || active?.sessionId === sessionId || polls.has(sessionId);
    },
    /** The results of a session, once the service is done; until then its status. */
    results(sessionId: string): Results {
      const done = results.get(sessionId);
      if (done) return done;
      if (active?.sessionId === sessionId || polls.has(sessionId)) {
        return { sessionId, kind: active?.kind ?? 'ambient', status: 'processing', done: false };
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
      const { rest } = session;
      const status =
        entry.kind === 'ambient'
          ? await rest.ambientStatus(entry.sessionId)
          : await rest.formStatus(entry.sessionId);
      if (!(status in FINAL_STATES))
        return { sessionId: entry.sessionId, kind: entry.kind, status, done: false };
      const formsStatus = entry.formSessionId ? await rest.formStatus(entry.formSessionId) : undefined;
      const fetched = await fetchVisitResults(rest, entry, status, formsStatus);
      results.set(entry.sessionId, fetched);
      deps.onVisit?.({ sessionId: entry.sessionId, state: FINAL_STATES[status] ?? 'failed', status });
      return fetched;
    },
    /** History's interrupted visits: listed, finished from their spool, or discarded. */
    interrupted,
    /** A notification said the service is done: check now instead of at the next poll. */
    wake(sessionId: string): void {
      polls.get(sessionId)?.wake();
    },
    dispose(): void {
      for (const leg of active ? legsOf(active) : []) {
        leg.recorder.dispose();
        leg.stream.dispose();
        leg.spool?.close();
      }
    },
  };
}

function legsOf(encounter: ActiveEncounter): Leg[] {
  return encounter.formLeg ? [encounter, encounter.formLeg] : [encounter];
}

function toView(encounter: ActiveEncounter, snapshot: RecorderSnapshot): RecorderView {
  const reason = describeRecorder(snapshot);
  return {
    state: snapshot.state,
    ...(reason ? { reason } : {}),
    sessionId: encounter.sessionId,
    encounterId: encounter.encounterId,
    kind: encounter.kind,
    elapsedMs: snapshot.elapsedMs,
    speech: snapshot.speech,
    backlogMs: snapshot.backlogMs,
  };
}
