import type { HistoryState, Results, StartEncounter } from '../../../shared/contract';
import type { VisitClock } from '../../../shared/visit-clock';
import type { Clock } from '../ports';
import { pollUntilTerminal, type Poll } from '../results/results-poller';
import type { ServiceSession } from './service-session';

type Rest = ServiceSession['rest'];
type Kind = StartEncounter['kind'];

/** The service's terminal statuses as History states. */
export const FINAL_STATES: Record<string, HistoryState> = {
  completed: 'done',
  skipped: 'skipped',
  failed: 'failed',
  cancelled: 'cancelled',
};

/**
 * Tells the service a session's audio is complete and waits for its verdict (completed, skipped,
 * failed…). `register` gets the poll at once, so a notification can wake it.
 */
export async function endAndAwaitVerdict(
  rest: Rest,
  session: { kind: Kind; sessionId: string },
  options: {
    clock: Clock;
    polling?: { firstDelayMs?: number; maxDelayMs?: number };
    onProgress?: (progress: { status: string; elapsedMs: number }) => void;
    register(poll: Poll): void;
    signal?: AbortSignal;
  },
): Promise<string> {
  const { kind, sessionId } = session;
  if (kind === 'ambient') await rest.endAmbientSession(sessionId);
  else await rest.endFormSession(sessionId);
  const poll = pollUntilTerminal({
    clock: options.clock,
    status: () => (kind === 'ambient' ? rest.ambientStatus(sessionId) : rest.formStatus(sessionId)),
    ...options.polling,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress
      ? { onProgress: (p) => options.onProgress!({ status: p.status, elapsedMs: p.elapsedMs }) }
      : {}),
  });
  options.register(poll);
  return poll.done;
}

/**
 * What the results view gets once the service is done with a visit: the note and transcript (or
 * the forms of a form-filling visit), an ambient visit's forms from its form-filling session, and
 * a sentence with the next step for anything that did not complete. The transcript's offsets
 * count only the audio the service received: the visit clock, when this app kept one, goes with
 * it so the view shows them on the visit's own time.
 */
export async function fetchVisitResults(
  rest: Rest,
  visit: {
    kind: Kind;
    sessionId: string;
    formSessionId?: string | undefined;
    visitClock?: VisitClock | undefined;
  },
  status: string,
  formsStatus: string | undefined,
): Promise<Results> {
  const base = { sessionId: visit.sessionId, kind: visit.kind, status, done: true } as const;
  if (status !== 'completed') return { ...base, problem: PROBLEMS[status] ?? PROBLEMS.failed };
  if (visit.kind === 'form') return { ...base, forms: (await rest.structuredData(visit.sessionId)).forms };
  const [content, transcript, forms] = await Promise.all([
    rest.ambientContent(visit.sessionId),
    rest.ambientTranscript(visit.sessionId),
    visit.formSessionId && formsStatus === 'completed' ? rest.structuredData(visit.formSessionId) : undefined,
  ]);
  const note = {
    ...base,
    summary: content.summary,
    transcript: transcript.final_transcript,
    ...(visit.visitClock?.length ? { visitClock: visit.visitClock } : {}),
  };
  if (!visit.formSessionId) return note;
  const formSessionId = visit.formSessionId;
  return forms
    ? { ...note, formSessionId, forms: forms.forms }
    : {
        ...note,
        formSessionId,
        formsProblem: FORM_PROBLEMS[formsStatus ?? 'failed'] ?? FORM_PROBLEMS.failed,
      };
}

/**
 * A visit from an earlier run of the app (History): where the service is with it, and once it is
 * done, its results fetched again (this device keeps no note text).
 */
export async function fetchEarlierVisit(
  rest: Rest,
  entry: {
    kind: Kind;
    sessionId: string;
    formSessionId?: string | undefined;
    visitClock?: VisitClock | undefined;
  },
): Promise<Results> {
  const status =
    entry.kind === 'ambient'
      ? await rest.ambientStatus(entry.sessionId)
      : await rest.formStatus(entry.sessionId);
  if (!(status in FINAL_STATES)) return { sessionId: entry.sessionId, kind: entry.kind, status, done: false };
  const formsStatus = entry.formSessionId ? await rest.formStatus(entry.formSessionId) : undefined;
  return fetchVisitResults(rest, entry, status, formsStatus);
}

const PROBLEMS: Record<string, string> = {
  skipped:
    'No note was made: the service heard no usable speech. Check the microphone and record the visit again.',
  failed: 'The service could not make the note. Try again; if it fails again, record the visit again.',
  cancelled: 'This recording was discarded.',
};

const FORM_PROBLEMS: Record<string, string> = {
  skipped: 'The forms were not filled: the service heard nothing for them. The note above is complete.',
  failed: 'The forms could not be filled this time. The note above is complete; fill the forms by hand.',
  cancelled: 'The forms were discarded.',
};
