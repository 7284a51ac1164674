import { useEffect, useId, useRef } from 'react';
import type { TranscriptEntry } from '../../../shared/service';
import { formatOffset } from '../../results/format';
import type { Highlight } from './highlight';
import './transcript.css';

interface Props {
  id: string;
  entries: readonly TranscriptEntry[];
  highlight: Highlight | null;
}

/** The timestamped transcript; the sentences a note section or form field came from can be lit. */
export function Transcript({ id, entries, highlight }: Props) {
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
            return (
              <li key={entry.transcript_id} data-highlighted={on} data-transcript-id={entry.transcript_id}>
                <time>{formatOffset(entry.start_offset)}</time>
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
