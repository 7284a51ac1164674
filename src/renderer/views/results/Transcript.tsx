import { useEffect, useId, useRef } from 'react';
import type { TranscriptEntry } from '../../../shared/service';
import { formatOffset } from '../../results/format';
import { LinePlay } from '../replay/LinePlay';
import { ReplayBar } from '../replay/ReplayBar';
import { useVisitReplay } from '../replay/replay-context';
import type { Highlight } from './highlight';
import './transcript.css';

interface Props {
  id: string;
  entries: readonly TranscriptEntry[];
  highlight: Highlight | null;
}

/** The timestamped transcript; the sentences a note section or form field came from can be lit. */
/** Each line has Play where the visit's recording is kept (replay-context.ts, issue 38). */
export function Transcript({ id, entries, highlight }: Props) {
  const replay = useVisitReplay();
  const headingId = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const lit = new Set(highlight?.ids ?? []);
  const litCount = entries.filter((e) => lit.has(e.transcript_id)).length;

  useEffect(() => {
    if (!highlight) return;
    const first = listRef.current?.querySelector('[data-highlighted="true"]');
    const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    first?.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
  }, [highlight]);

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Transcript</h3>
      {replay && <ReplayBar sessionId={replay.sessionId} gone={replay.gone} />}
      {/* Says what changed, since the light itself is only seen. */}
      <p role="status" className="visually-hidden">
        {highlight &&
          (litCount > 0
            ? `${litCount} ${litCount === 1 ? 'sentence' : 'sentences'} of the transcript marked as the source of ${highlight.name}.`
            : `The source of ${highlight.name} is not in this transcript.`)}
      </p>
      {/* Scrolls on its own so a lit sentence can be shown without losing the note. */}
      <div className="transcript-scroll" role="region" aria-labelledby={headingId} tabIndex={0}>
        <ol
          className="transcript"
          id={id}
          ref={listRef}
          data-testid="transcript"
          data-hours={entries.some((entry) => entry.start_offset.hours > 0)}
        >
          {entries.map((entry) => {
            const on = lit.has(entry.transcript_id);
            const time = formatOffset(entry.start_offset);
            return (
              <li key={entry.transcript_id} data-highlighted={on} data-transcript-id={entry.transcript_id}>
                <LinePlay id={entry.transcript_id} speaker={entry.speaker} time={time} />
                <time>{time}</time>
                {entry.speaker && <span className="speaker">{entry.speaker}</span>}
                <span>
                  {on && <span className="visually-hidden">Source: </span>}
                  {entry.transcript}
                </span>
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}
