import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import type { TranscriptEntry } from '../../../shared/service';
import { formatOffset } from '../../results/format';
import { LinePlay } from '../replay/LinePlay';
import { ReplayContext, useReplayProblem, useVisitReplay } from '../replay/replay-context';
import type { SectionMark } from './MarkedText';
import './check.css';

interface Props {
  id: string;
  mark: SectionMark;
  /** The lines the section was checked against, on the visit's clock. */
  lines: readonly TranscriptEntry[];
  onChecked(checked: boolean): void;
  /** Closes the panel; the focus goes back to the mark. */
  onClose(): void;
}

/**
 * An open flag (issue 38): what the note says against what was said, the lines it was checked
 * against, and Checked, which keeps the value as written and takes it off the count.
 */
export function CheckPanel({ id, mark, lines, onChecked, onClose }: Props) {
  const { flag, checked } = mark;
  // Play on these lines says here, under the flag, when it plays nothing.
  const replay = useVisitReplay();
  const underFlag = useMemo(() => replay && { ...replay, where: 'flag' as const }, [replay]);
  const problem = useReplayProblem(replay?.sessionId, 'flag');
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    onClose();
  };
  return (
    <div
      className="check-panel"
      id={id}
      role="group"
      aria-label={`Check ${flag.written}`}
      data-testid="check-panel"
      onKeyDown={onKeyDown}
    >
      <p className="check-verdict">
        The note says <strong>{flag.written}</strong>
        {flag.said === undefined ? (
          <>; the lines it comes from do not say it.</>
        ) : (
          <>
            ; what was said: <strong>{flag.said}</strong>.
          </>
        )}
      </p>
      {/* Scrolls when the section cites many lines: reachable by the keyboard to scroll it. */}
      <ReplayContext.Provider value={underFlag}>
        <ol className="check-lines" aria-label="What was said" tabIndex={0}>
          {lines.map((line) => (
            <li key={line.transcript_id}>
              <LinePlay
                id={line.transcript_id}
                speaker={line.speaker}
                time={formatOffset(line.start_offset)}
              />
              <time>{formatOffset(line.start_offset)}</time>
              {line.speaker && <span className="speaker">{line.speaker}</span>}
              <span>{line.transcript}</span>
            </li>
          ))}
        </ol>
      </ReplayContext.Provider>
      {replay && !replay.gone && (
        <p role="status" className="replay-problem" data-testid="check-replay-problem">
          {problem}
        </p>
      )}
      <p className="check-actions">
        <button
          type="button"
          ref={first}
          aria-pressed={checked}
          onClick={() => onChecked(!checked)}
          data-testid="check-checked"
        >
          {checked ? '✓ Checked' : 'Checked'}
        </button>
        <button type="button" className="link-button" onClick={onClose}>
          Close <kbd>Esc</kbd>
        </button>
      </p>
    </div>
  );
}
