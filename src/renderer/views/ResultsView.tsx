import { useId, useState } from 'react';
import type { SummarySection } from '../../shared/service';
import { formatOffset, noteText, sectionText, sectionTitle, waitSeconds } from '../results/format';
import { useAppStore } from '../store/use-app-store';

/** The service's words for its states, as a clinician would say them. */
const STATUS_WORDS: Record<string, string> = {
  created: 'Waiting for the service…',
  in_progress: 'Writing the note…',
  processing: 'Writing the note…',
  completed: 'The note is ready.',
  skipped: 'No note was made.',
  failed: 'The note could not be made.',
};

/** After End: progress while the service works, then the note by section and the transcript. */
export function ResultsView() {
  const headingId = useId();
  const progress = useAppStore((s) => s.progress);
  const results = useAppStore((s) => s.results);
  const error = useAppStore((s) => s.resultsError);
  if (!progress && !results) return null;

  const status = results?.status ?? progress?.status ?? 'processing';
  return (
    <section className="card results" aria-labelledby={headingId} data-testid="results">
      <h2 id={headingId}>Note</h2>
      <p role="status" data-testid="results-status" aria-busy={!results}>
        {STATUS_WORDS[status] ?? 'Writing the note…'}
        {!results && progress && ` ${waitSeconds(progress.elapsedMs)} s`}
      </p>
      {results?.problem && (
        <p className="warning" role="alert">
          {results.problem}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {results?.summary && results.summary.length > 0 && (
        <>
          <div className="actions">
            <CopyButton text={noteText(results.summary)} label="Copy all" />
          </div>
          {results.summary.map((section) => (
            <NoteSection key={section.title} section={section} />
          ))}
        </>
      )}
      {results?.transcript && results.transcript.length > 0 && (
        <>
          <h3>Transcript</h3>
          <ol className="transcript" data-testid="transcript">
            {results.transcript.map((entry) => (
              <li key={entry.transcript_id}>
                <time>{formatOffset(entry.start_offset)}</time>
                {entry.speaker && <span className="speaker">{entry.speaker}</span>}
                <span>{entry.transcript}</span>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

function NoteSection({ section }: { section: SummarySection }) {
  const id = useId();
  return (
    <section className="note-section" aria-labelledby={id}>
      <div className="note-section-head">
        <h3 id={id}>{sectionTitle(section)}</h3>
        <CopyButton text={sectionText(section)} label={`Copy ${sectionTitle(section)}`} />
      </div>
      <p>{section.content}</p>
    </section>
  );
}

/** Copies plain text for an EHR field and says so; says what to do when the clipboard refuses. */
function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  return (
    <span className="copy">
      <button type="button" className="link-button" aria-label={label} onClick={() => void copy()}>
        {label.startsWith('Copy all') ? 'Copy all' : 'Copy'}
      </button>
      <span role="status" className="copy-state">
        {state === 'copied' && 'Copied.'}
        {state === 'failed' && 'Could not copy: select the text and copy it by hand.'}
      </span>
    </span>
  );
}
