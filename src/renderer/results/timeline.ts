import { isTerminalStatus } from '../../shared/service';

export type StepState = 'done' | 'active' | 'pending' | 'problem';

export interface TimelineStep {
  id: 'ended' | 'upload' | 'processing' | 'outcome';
  label: string;
  state: StepState;
}

export interface TimelineInput {
  kind: 'ambient' | 'form';
  /** Main's recorder: 'ending' while the last audio is still going out. */
  recorderState: string | undefined;
  /** The service's status as main last reported it, if it has reported yet. */
  status: string | undefined;
}

/** What the finished visit produced, by outcome; the service's own words are not for clinicians. */
const OUTCOMES: Record<string, { label: string; state: StepState }> = {
  completed: { label: 'ready', state: 'done' },
  skipped: { label: 'skipped: no usable speech', state: 'problem' },
  failed: { label: 'failed', state: 'problem' },
  cancelled: { label: 'discarded', state: 'problem' },
};

/**
 * The steps a visit goes through after End, and where it is now. Until main's first report the
 * audio is still going out; any status that is not terminal, known or not, means the service is
 * still working (docs/protocol.md: unknown values are non-terminal).
 */
export function timelineSteps(input: TimelineInput): TimelineStep[] {
  const product = input.kind === 'form' ? 'Forms' : 'Note';
  // 'offline' is main's word, not the service's: the visit waits for the network at whatever step.
  const offline = input.status === 'offline';
  const uploading = (input.status === undefined || offline) && input.recorderState === 'ending';
  const terminal = input.status !== undefined && isTerminalStatus(input.status);
  const outcome = terminal ? (OUTCOMES[input.status as string] ?? OUTCOMES.failed!) : undefined;
  return [
    { id: 'ended', label: 'Visit ended', state: 'done' },
    {
      id: 'upload',
      label: uploading && offline ? 'Sending the last audio when online' : 'Sending the last audio',
      state: uploading ? 'active' : 'done',
    },
    {
      id: 'processing',
      label: input.kind === 'form' ? 'Service filling the forms' : 'Service writing the note',
      state: uploading ? 'pending' : terminal ? 'done' : 'active',
    },
    {
      id: 'outcome',
      label: `${product} ${outcome?.label ?? 'ready'}`,
      state: outcome?.state ?? 'pending',
    },
  ];
}

export interface ElapsedInput {
  /** When the clinician pressed End (renderer clock), if this renderer saw it. */
  endedAt?: number | undefined;
  progress?: { elapsedMs: number; done: boolean } | null | undefined;
  /** When that progress report arrived (renderer clock). */
  progressAt?: number | undefined;
  now: number;
}

/**
 * How long the clinician has been waiting, in ms. Main's figure counts from when it started
 * polling, which is later than End, so the larger of the two readings is shown; between reports it
 * advances on the renderer's clock, and it stops at the report that said the wait is over.
 */
export function waitElapsedMs(input: ElapsedInput): number {
  const { progress, progressAt } = input;
  const now = progress?.done && progressAt !== undefined ? progressAt : input.now;
  const local = input.endedAt !== undefined ? now - input.endedAt : 0;
  const reported = progress && progressAt !== undefined ? progress.elapsedMs + (now - progressAt) : 0;
  return Math.max(0, local, reported);
}
