import { useId } from 'react';
import type { SummarySection } from '../../../shared/service';
import { noteText, sectionText, sectionTitle } from '../../results/format';
import { CopyButton } from './CopyButton';
import type { Highlight } from './highlight';

interface Props {
  sections: readonly SummarySection[];
  highlight: Highlight | null;
  onHighlight(next: Highlight): void;
  /** The transcript list the Show source buttons light up. */
  transcriptId: string | undefined;
}

/** The note by section, each ready to copy into its EHR field, each able to show where it came from. */
export function NoteSections({ sections, highlight, onHighlight, transcriptId }: Props) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <div className="note-section-head">
        <h3 id={headingId}>Note</h3>
        <CopyButton text={noteText(sections)} label="Copy all of the note" visible="Copy all" />
      </div>
      {sections.map((section, index) => (
        <NoteSection
          key={`${index}:${section.title}`}
          owner={`section:${index}`}
          section={section}
          highlight={highlight}
          onHighlight={onHighlight}
          transcriptId={transcriptId}
        />
      ))}
    </section>
  );
}

function NoteSection(props: Omit<Props, 'sections'> & { owner: string; section: SummarySection }) {
  const id = useId();
  const { section, owner } = props;
  const title = sectionTitle(section);
  const sources = section.source_transcripts ?? [];
  const pressed = props.highlight?.owner === owner;
  return (
    <section className="note-section" aria-labelledby={id}>
      <div className="note-section-head">
        <h4 id={id}>{title}</h4>
        <span className="note-section-actions">
          {/* Only where the service said which sentences the section came from. */}
          {sources.length > 0 && props.transcriptId && (
            <button
              type="button"
              className="link-button toggle"
              aria-pressed={pressed}
              aria-label={`Show source of ${title}`}
              aria-controls={props.transcriptId}
              onClick={() => props.onHighlight({ owner, name: title, ids: sources })}
            >
              Show source
            </button>
          )}
          <CopyButton text={sectionText(section)} label={`Copy ${title}`} />
        </span>
      </div>
      <p>{section.content}</p>
    </section>
  );
}
