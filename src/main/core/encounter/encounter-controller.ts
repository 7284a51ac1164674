import { randomUUID } from 'node:crypto';
import type { AudioChunk, RecorderView, Results, StartEncounter } from '../../../shared/contract';
import { createRecorder, type Recorder } from '../recorder/recorder';
import type { RecorderTiming } from '../recorder/recorder-types';
import { describeRecorder, type RecorderSnapshot } from '../recorder/recorder-view';
import type { Clock, Logger } from '../ports';
import { pollUntilTerminal } from '../results/results-poller';
import { createStreamClient, type StreamClient } from '../stream/stream-client';
import type { FormContextItem } from '../../../shared/service';
import type { ServiceSession } from './service-session';
import { UserFacingError } from '../user-facing-error';

interface ActiveEncounter {
  kind: StartEncounter['kind'];
  encounterId: string;
  sessionId: string;
  session: ServiceSession;
  recorder: Recorder;
  stream: StreamClient;
}

export interface EncounterControllerDeps {
  clock: Clock;
  log: Logger;
  recorderTiming?: Partial<RecorderTiming>;
  /** Tests stretch polling to show that a notification, not a poll, brought the results. */
  resultsPolling?: { firstDelayMs?: number; maxDelayMs?: number };
  onRecorderChange(view: RecorderView): void;
  onResultsProgress(progress: { sessionId: string; status: string; elapsedMs: number; done: boolean }): void;
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
  const polls = new Map<string, ReturnType<typeof pollUntilTerminal>>();

  function view(): RecorderView {
    if (!active) return finishedView ?? IDLE;
    return toView(active, active.recorder.state);
  }

  async function start(request: StartEncounter, session: ServiceSession): Promise<RecorderView> {
    if (active && !['ended', 'cancelled', 'failed'].includes(active.recorder.state.state)) {
      throw new UserFacingError('invalid_request', 'A recording is already running. End or cancel it first.');
    }
    await session.auth.current();
    const sessionId =
      request.kind === 'ambient'
        ? await session.rest.createAmbientSession(request.encounterId, randomUUID())
        : await session.rest.createFormSession(request.encounterId);
    // protocol: Ambient session (post context before opening the stream)
    if (request.kind === 'ambient' && request.context)
      await session.rest.postAmbientContext(sessionId, request.context);
    if (request.kind === 'form') await session.rest.postFormContext(sessionId, request.formItems);

    const stream = createStreamClient({
      endpoint: session.connection.endpoint,
      sessionId,
      tokens: session.auth,
      clock: deps.clock,
      log: deps.log,
    });
    const recorder = createRecorder({
      stream,
      clock: deps.clock,
      log: deps.log,
      ...(deps.recorderTiming ? { timing: deps.recorderTiming } : {}),
    });
    const encounter: ActiveEncounter = {
      kind: request.kind,
      encounterId: request.encounterId,
      sessionId,
      session,
      recorder,
      stream,
    };
    active = encounter;
    recorder.onChange((snapshot) => deps.onRecorderChange(toView(encounter, snapshot)));
    recorder.start();
    return view();
  }

  function requireActive(): ActiveEncounter {
    if (!active) throw new UserFacingError('invalid_request', 'No recording is running.');
    return active;
  }

  /** End: the recorder sends what is left and EOF, then the service is told and polled. */
  async function end(): Promise<RecorderView> {
    const encounter = requireActive();
    const finished = encounter.recorder.end();
    void finished.then(
      () => afterEnd(encounter),
      (error: unknown) =>
        deps.log.warn('the recording could not finish', { error: (error as Error).message }),
    );
    return view();
  }

  async function afterEnd(encounter: ActiveEncounter): Promise<void> {
    const { rest } = encounter.session;
    if (encounter.kind === 'ambient') await rest.endAmbientSession(encounter.sessionId);
    else await rest.endFormSession(encounter.sessionId);
    encounter.stream.dispose();
    const started = deps.clock.now();
    const status = (): Promise<string> =>
      encounter.kind === 'ambient'
        ? rest.ambientStatus(encounter.sessionId)
        : rest.formStatus(encounter.sessionId);
    const poll = pollUntilTerminal({
      clock: deps.clock,
      status,
      ...deps.resultsPolling,
      onProgress: (p) =>
        deps.onResultsProgress({
          sessionId: encounter.sessionId,
          status: p.status,
          elapsedMs: p.elapsedMs,
          done: false,
        }),
    });
    polls.set(encounter.sessionId, poll);
    const final = await poll.done;
    results.set(encounter.sessionId, await fetchResults(encounter, final));
    // The visit is done: let go of its recorder and audio log, keep only what the view shows.
    if (active === encounter) {
      finishedView = view();
      encounter.recorder.dispose();
      active = undefined;
    }
    deps.onResultsProgress({
      sessionId: encounter.sessionId,
      status: final,
      elapsedMs: deps.clock.now() - started,
      done: true,
    });
  }

  async function fetchResults(encounter: ActiveEncounter, status: string): Promise<Results> {
    const base = { sessionId: encounter.sessionId, kind: encounter.kind, status, done: true } as const;
    const { rest } = encounter.session;
    if (status !== 'completed') return { ...base, problem: PROBLEMS[status] ?? PROBLEMS.failed };
    if (encounter.kind === 'form')
      return { ...base, forms: (await rest.structuredData(encounter.sessionId)).forms };
    const [content, transcript] = await Promise.all([
      rest.ambientContent(encounter.sessionId),
      rest.ambientTranscript(encounter.sessionId),
    ]);
    return { ...base, summary: content.summary, transcript: transcript.final_transcript };
  }

  return {
    start,
    view,
    chunk(chunk: AudioChunk): void {
      requireActive().recorder.pushChunk(chunk);
    },
    /** protocol: Form filling (PATCH merges by item key) — a form added while recording. */
    async addForms(items: FormContextItem[]): Promise<void> {
      const encounter = requireActive();
      if (encounter.kind !== 'form')
        throw new UserFacingError('invalid_request', 'Forms can be added only to a form-filling recording.');
      await encounter.session.rest.patchFormContext(encounter.sessionId, items);
    },
    pause(): RecorderView {
      requireActive().recorder.pause();
      return view();
    },
    resume(): RecorderView {
      requireActive().recorder.resume();
      return view();
    },
    end,
    async cancel(): Promise<RecorderView> {
      const encounter = requireActive();
      await encounter.recorder.cancel();
      encounter.stream.dispose();
      return view();
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
    /** A notification said the service is done: check now instead of at the next poll. */
    wake(sessionId: string): void {
      polls.get(sessionId)?.wake();
    },
    dispose(): void {
      active?.recorder.dispose();
      active?.stream.dispose();
    },
  };
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

const PROBLEMS: Record<string, string> = {
  skipped:
    'No note was made: the service heard no usable speech. Check the microphone and record the visit again.',
  failed: 'The service could not make the note. Try again; if it fails again, record the visit again.',
  cancelled: 'This recording was discarded.',
};
