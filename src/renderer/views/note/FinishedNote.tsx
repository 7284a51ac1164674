import { useId, useRef } from 'react';
import { useFocusOnArrival } from '../focus-on-arrival';
import type { SummarySection } from '../../../shared/service';
import { sectionTitle } from '../../results/format';

const finishedWhen = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A note finished, past Undo (issue 37, finding 3): what went into the EHR was the clinician's
 * edited text, and the edits left this computer when it was finished (issue 29 decided so). What is
 * left here is the service's original, which must not pose as the final note: the pane says the
 * note is in the EHR and since when, and the original is behind "Show the service's original",
 * labelled as such, with nothing to copy.
 */
export function FinishedNote({
  sections,
  finishedAt,
}: {
  sections: readonly SummarySection[];
  finishedAt: number;
}) {
  const headingId = useId();
  // Undo's window closing takes Finished and Undo with it: a focus left on them lands here.
  const status = useRef<HTMLParagraphElement>(null);
  useFocusOnArrival(status);
  return (
    <section aria-labelledby={headingId} data-testid="finished-note">
      <h3 id={headingId}>Note</h3>
      <p role="status" className="finished" data-testid="note-in-ehr" tabIndex={-1} ref={status}>
        ✓ In the EHR since {finishedWhen.format(finishedAt)}. Your edits were deleted from this computer when
        you finished it: the EHR has the note as it was sent.
      </p>
      <details className="service-original" data-testid="service-original">
        <summary>Show the service’s original</summary>
        <p className="muted">The service’s original note, before your edits: not what went into the EHR.</p>
        {sections.map((section, index) => (
          <section key={`${index}-${section.title}`} className="original-section">
            <h4>{sectionTitle(section)}</h4>
            <p className="original-text">{section.content}</p>
          </section>
        ))}
      </details>
    </section>
  );
}
