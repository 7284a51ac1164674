import { formatClock } from '../../results/format';
import { timelineSteps, waitElapsedMs, type StepState } from '../../results/timeline';
import { useAppStore } from '../../store/use-app-store';
import { useNow } from '../use-now';
import './timeline.css';

const STATE_WORDS: Record<StepState, string> = {
  done: 'done',
  active: 'in progress',
  pending: 'not yet',
  problem: 'stopped',
};

const MARKS: Record<StepState, string> = { done: '✓', active: '', pending: '○', problem: '!' };

/**
 * Where the visit is after End, with the time waited and a progress bar while anything is still
 * being waited for. It only shows main's reports; main does the polling.
 */
export function ResultsTimeline({ kind }: { kind: 'ambient' | 'form' }) {
  const recorderState = useAppStore((s) => s.recorder?.state);
  const progress = useAppStore((s) => s.progress);
  const progressAt = useAppStore((s) => s.progressAt);
  const endedAt = useAppStore((s) => s.endedAt);
  const waiting = !progress?.done;
  const now = useNow(waiting);
  const steps = timelineSteps({ kind, recorderState, status: progress?.status });
  const elapsed = formatClock(
    Math.floor(
      waitElapsedMs({ endedAt: endedAt ?? undefined, progress, progressAt: progressAt ?? undefined, now }) /
        1_000,
    ),
  );
  const active = steps.find((s) => s.state === 'active');

  return (
    <div className="timeline" data-testid="results-timeline">
      <ol aria-label="Progress of this visit">
        {steps.map((step) => (
          <li
            key={step.id}
            data-state={step.state}
            aria-current={step.state === 'active' ? 'step' : undefined}
          >
            <span className="timeline-mark" aria-hidden="true">
              {MARKS[step.state]}
            </span>
            {step.label}
            <span className="visually-hidden"> ({STATE_WORDS[step.state]})</span>
          </li>
        ))}
      </ol>
      <p className="timeline-wait">
        {waiting ? 'Waiting ' : 'Waited '}
        <time data-testid="results-elapsed">{elapsed}</time>
      </p>
      {waiting && (
        // Indeterminate: the service gives no percentage, only that it is still working.
        <div
          className="indeterminate"
          role="progressbar"
          aria-label={active ? active.label : 'Waiting for the service'}
          aria-valuetext={`${elapsed} waited`}
        />
      )}
    </div>
  );
}
