import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { RECORDING_DELETED_AT_FINISHED, type HistoryEntry } from '../../../shared/contract';
import { isTerminalStatus } from '../../../shared/service';
import { formatClock } from '../../results/format';
import { formTitle } from '../../results/form-text';
import { onVisitClock } from '../../results/visit-times';
import { useAppStore } from '../../store/use-app-store';
import { CopyAnnouncer } from './CopyButton';
import { useVisitPatientLine } from '../visit-patient';
import { useFocusOnArrival } from '../focus-on-arrival';
import { FormFeedback } from './FormFeedback';
import { SignInButton } from '../sign-in/SignInPanel';
import { FormTable } from './FormTable';
import { toggleHighlight, type Highlight } from './highlight';
import { NoteSections } from './NoteSections';
import { ResultsTimeline } from './ResultsTimeline';
import { Transcript } from './Transcript';
import { replayLines } from '../replay/replay-lines';
import { ReplayContext } from '../replay/replay-context';
import { visitRecordLines } from '../../results/visit-record-lines';
import './results.css';

/** The service's words for its states, as a clinician would say them. */
const STATUS_WORDS: Record<string, string> = {
  completed: 'The note is ready.',
  skipped: 'No note was made.',
  failed: 'The note could not be made.',
  cancelled: 'This recording was discarded.',
};

/**
 * After End: where the visit is while the service works, then the note by section, the transcript
 * and any filled forms; a visit that made no note says why and offers to record again.
 */
export function ResultsView() {
  const endedAt = useAppStore((s) => s.endedAt);
  const sessionId = useAppStore((s) => s.results?.sessionId ?? s.progress?.sessionId ?? s.resultsFor);
  if (endedAt === null && sessionId === undefined) return null;
  // A new visit starts with nothing lit.
  return <ResultsCard key={sessionId ?? 'ended'} />;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Which visit this is: its encounter, when it was and how long it lasted (from History). */
function visitLine(entry: HistoryEntry | undefined): string {
  if (!entry) return '';
  const length =
    entry.endedAt !== undefined
      ? ` · ${formatClock(Math.round((entry.endedAt - entry.startedAt) / 1_000))}`
      : '';
  const missingS = Math.round((entry.missingAudioMs ?? 0) / 1_000);
  // Time without audio (a reload mid-visit) stays part of what the visit is (issue 37).
  const missing = missingS > 0 ? ` · ${missingS} s without audio (the window reloaded)` : '';
  return `${entry.video ? 'Video visit · ' : ''}${dateTime.format(entry.startedAt)}${length}${missing}`;
}

function ResultsCard() {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const sessionId = useAppStore((s) => s.resultsFor ?? s.recorder?.sessionId);
  const entry = useAppStore((s) => s.history.find((e) => e.sessionId === sessionId));
  // As the EHR prints it, where the service got only its letters and digits (issue 37).
  const encounterId = useAppStore((s) => entry?.shownAs ?? entry?.encounterId ?? s.recorder?.encounterId);
  // The patient (History keeps no patient details; main keeps them sealed with the note).
  const patientLine = useVisitPatientLine(sessionId);
  // The pane turns to this visit by itself after End: focus goes to its heading, so that the next
  // key press cannot start another recording by accident.
  useEffect(() => heading.current?.focus(), []);
  const transcriptId = useId();
  const progress = useAppStore((s) => s.progress);
  const results = useAppStore((s) => s.results);
  const error = useAppStore((s) => s.resultsError);
  const templates = useAppStore((s) => s.formTemplates);
  const kindNow = useAppStore((s) => s.recorder?.kind);
  const clearResults = useAppStore((s) => s.clearResults);
  const signedOut = useAppStore((s) => s.auth !== null && !s.auth.signedIn);
  // Signed in from this pane: its Sign in is gone, and the visit's heading takes the focus.
  useFocusOnArrival(heading, !signedOut);
  const [highlight, setHighlight] = useState<Highlight | null>(null);
  // The clinician's edits of this note and its forms, kept by main (issue 29), over the service's.
  const loadNoteDraft = useAppStore((s) => s.loadNoteDraft);
  const noteSessionId = results?.summary?.length || results?.forms?.length ? results.sessionId : undefined;
  useEffect(() => {
    if (noteSessionId) void loadNoteDraft(noteSessionId);
  }, [noteSessionId, loadNoteDraft]);

  const kind = results?.kind ?? kindNow ?? 'ambient';
  const status = results?.status ?? progress?.status;
  const finished = status !== undefined && isTerminalStatus(status);
  const words = finished
    ? (STATUS_WORDS[status] ?? STATUS_WORDS.failed)
    : progress?.offline
      ? 'Finishing when online: the visit is saved on this computer and finishes by itself when the service can be reached. You can start the next visit.'
      : kind === 'form'
        ? 'Filling the forms…'
        : 'Writing the note…';
  // What the record of the visit needs besides the note (issues 29 and 37): a video visit, and
  // the patient's consent, dated; in the header, and the last lines of Copy all.
  const recordLines = visitRecordLines(entry, (at) => dateTime.format(at));
  const consent = entry?.consent ? recordLines.at(-1) : undefined;
  const onHighlight = (next: Highlight) => setHighlight((current) => toggleHighlight(current, next));
  // On the visit's own clock: the times the recording screen showed, not the service's.
  const transcript = useMemo(
    () => (results?.transcript?.length ? onVisitClock(results.transcript, results.visitClock) : undefined),
    [results],
  );
  // Play on each line (issue 38), by the service's own times; gone once the note is Finished.
  const replayAudio = useAppStore((s) => s.settings?.replayAudio === true);
  // Deleted at Finished: gone after an Undo too (main says so in recordingDeletedAt).
  const deletedAt = entry?.finishedAt ?? entry?.recordingDeletedAt;
  const replay = useMemo(
    () =>
      replayAudio && results?.kind === 'ambient' && results.transcript?.length && entry
        ? {
            sessionId: results.sessionId,
            lines: replayLines(results.transcript),
            gone: deletedAt === undefined ? undefined : RECORDING_DELETED_AT_FINISHED,
          }
        : null,
    [replayAudio, results, entry, deletedAt],
  );
  const forms = results?.forms ?? [];
  const note =
    results?.summary && results.summary.length > 0 ? (
      <>
        <NoteSections
          sessionId={results.sessionId}
          sections={results.summary}
          {...(recordLines.length > 0 ? { closingLines: recordLines } : {})}
          highlight={highlight}
          onHighlight={onHighlight}
          transcriptId={transcript ? transcriptId : undefined}
          {...(transcript ? { transcript } : {})}
        />
        {results.formsProblem && (
          <p className="warning" role="alert" data-testid="forms-problem">
            {results.formsProblem}
          </p>
        )}
      </>
    ) : results?.formsProblem ? (
      <p className="warning" role="alert" data-testid="forms-problem">
        {results.formsProblem}
      </p>
    ) : undefined;
  const formsSection = (
    <section aria-labelledby={`${headingId}-forms`}>
      <h3 id={`${headingId}-forms`}>Forms</h3>
      {forms.map((form) => {
        const title = formTitle(form, templates);
        const templateId = form.form_template_id ?? form.form_id;
        return (
          <div key={form.form_id} className="form-with-feedback">
            <FormTable
              form={form}
              title={title}
              sessionId={results?.sessionId}
              transcript={transcript}
              highlight={highlight}
              onHighlight={onHighlight}
              transcriptId={transcript ? transcriptId : undefined}
            />
            {/* Folded: a message to the service is for when there is time, not in the way of the next patient. */}
            <details className="feedback-fold">
              <summary>Tell the service how it filled {title}</summary>
              <FormFeedback
                form={form}
                title={title}
                template={templates.find((t) => t.form_template_id === templateId)}
              />
            </details>
          </div>
        );
      })}
    </section>
  );

  return (
    <section className="card results" aria-labelledby={headingId} data-testid="results">
      <header className="visit-header">
        <h2 id={headingId} ref={heading} tabIndex={-1} data-testid="results-heading">
          {encounterId ? `Encounter ${encounterId}` : 'This visit'}
        </h2>
        {patientLine && <p data-testid="note-patient">{patientLine}</p>}
        <p className="muted" data-testid="visit-line">
          {visitLine(entry)}
        </p>
        {consent && (
          <p className="muted" data-testid="note-consent">
            {consent}
          </p>
        )}
      </header>
      <CopyAnnouncer />
      <p role="status" className="results-status" data-testid="results-status" aria-busy={!results}>
        {kind === 'form' && status === 'completed' ? 'The forms are ready.' : words}
      </p>
      {/* Once the note is ready the steps have nothing more to say; a visit that stopped keeps them. */}
      {status !== 'completed' && <ResultsTimeline kind={kind} />}
      {results?.problem && (
        <div className="problem-notice">
          <p role="alert">{results.problem}</p>
          <button type="button" onClick={clearResults}>
            Record again
          </button>
        </div>
      )}
      {error && (
        <div className="problem-notice">
          <p className="error" role="alert">
            {error}
          </p>
          {/* Signed out (issue 29): nothing opens until the clinician signs in, from here too. */}
          {signedOut && <SignInButton saysRefusal />}
        </div>
      )}
      {(note || forms.length > 0 || transcript) && (
        // Wide enough (≥ 1,200 px), the transcript stands beside the note (results.css).
        <ReplayContext.Provider value={replay}>
          <div className="results-body" data-has-transcript={Boolean(transcript)}>
            <div className="results-main">
              {note && forms.length > 0 ? (
                // A note and forms: each its own tab, the note first.
                <Tabs className="tabs">
                  <TabList aria-label="Results" className="tab-list">
                    <Tab id="note" className="tab">
                      Note
                    </Tab>
                    <Tab id="forms" className="tab">
                      Forms ({forms.length})
                    </Tab>
                  </TabList>
                  <TabPanel id="note" className="tab-panel">
                    {note}
                  </TabPanel>
                  <TabPanel id="forms" className="tab-panel">
                    {formsSection}
                  </TabPanel>
                </Tabs>
              ) : (
                <>
                  {note}
                  {forms.length > 0 && formsSection}
                </>
              )}
            </div>
            {transcript && (
              <div className="results-transcript">
                <Transcript id={transcriptId} entries={transcript} highlight={highlight} />
              </div>
            )}
          </div>
        </ReplayContext.Provider>
      )}
    </section>
  );
}
