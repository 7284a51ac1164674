import { useEffect } from 'react';
import { REPLAY_RATES } from '../../store/replay-slice';
import { useAppStore } from '../../store/use-app-store';
import { useReplayProblem, useVisitReplay } from './replay-context';
import './replay.css';

interface Props {
  sessionId: string;
  /** Why no line plays (the recording was deleted at Finished): one line in place of the controls. */
  gone?: string | undefined;
}

/**
 * Above the transcript (issue 38): the speed Play uses, and one line when a Play on the transcript
 * played nothing (under a flag, the flag's panel says it) or the recording is gone.
 */
export function ReplayBar({ sessionId, gone }: Props) {
  const rate = useAppStore((s) => s.replayRate);
  const setRate = useAppStore((s) => s.setReplayRate);
  const warmReplay = useAppStore((s) => s.warmReplay);
  const first = useVisitReplay()?.lines.values().next().value;
  // The output is made, and main reads the recording once, while the clinician reads: the first
  // Play sounds as soon as the next ones.
  useEffect(() => {
    if (!gone) warmReplay(first && { sessionId, line: first });
  }, [gone, warmReplay, sessionId, first]);
  const problem = useReplayProblem(sessionId, 'transcript');
  if (gone)
    return (
      <p className="muted replay-gone" data-testid="replay-gone">
        {gone}
      </p>
    );
  return (
    <div className="replay-bar">
      <button
        type="button"
        className="link-button small toggle"
        aria-pressed={rate !== 1}
        data-testid="replay-rate"
        onClick={() => setRate(rate === 1 ? REPLAY_RATES[1] : REPLAY_RATES[0])}
      >
        Play at 1.5×
      </button>
      <p role="status" className="replay-problem" data-testid="replay-problem">
        {problem}
      </p>
    </div>
  );
}
