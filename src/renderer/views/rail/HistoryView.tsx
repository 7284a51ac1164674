import { useEffect, useId, useState } from 'react';
import type { HistoryEntry, HistoryState } from '../../../shared/contract';
import { isToFinish } from '../../store/history-slice';
import { RECORDING_STATES } from '../../store/recording-states';
import { useAppStore } from '../../store/use-app-store';
import { railEncounterId } from './rail-id';
import { fullTime, railTime } from './rail-time';
import './rail.css';

const STATE_WORDS: Record<HistoryState, string> = {
  recording: 'Recording',
  interrupted: 'Interrupted: the app stopped during the visit',
  finishing: 'Finishing when online',
  processing: 'Processing at the service',
  done: 'Note ready',
  skipped: 'No note: no usable speech',
  failed: 'Failed',
  cancelled: 'Discarded',
};

/**
 * The visits recorded on this computer, newest first. Opening one fetches its note from the
 * service again: this device keeps no note text or transcript.
 *
 * Read at the end of a clinic day (issue 31): each row is two short lines, the encounter, its time
 * and its action, then its state, so a day of visits fits the rail; the visit the pane shows is
 * marked (aria-current). The visit being recorded stands first, under "Now", and each ID reads as
 * the EHR prints it (issue 37).
 */
export function HistoryView() {
  const headingId = useId();
  const history = useAppStore((s) => s.history);
  const error = useAppStore((s) => s.historyError);
  const load = useAppStore((s) => s.loadHistory);
  const reopen = useAppStore((s) => s.reopen);
  // Only a visit recording now has no Open: one that just ended opens like any other.
  const recordingSession = useAppStore((s) =>
    RECORDING_STATES.has(s.recorder?.state ?? 'idle') ? s.recorder?.sessionId : undefined,
  );
  // The visit in the pane: the one recording, else the note on screen (App's VisitPane).
  const openSession = useAppStore((s) => recordingSession ?? s.resultsFor ?? undefined);
  const now = new Date();
  const retentionDays = useAppStore((s) => s.settings?.audioRetentionDays);
  const replayAudio = useAppStore((s) => s.settings?.replayAudio !== false);
  const keyInMemoryOnly = useAppStore((s) => s.secrets?.persistence === 'memory');
  const providerId = useAppStore((s) => s.auth?.providerId);
  useEffect(() => void load(), [load]);
  if (history.length === 0 && !error) return null;
  // The visit being recorded first (issue 37), then the notes still to go into the EHR (issue 29),
  // this provider's only, then the rest.
  const recordingNow = history.filter((entry) => entry.sessionId === recordingSession);
  const toFinish = history.filter((entry) => !recordingNow.includes(entry) && isToFinish(entry, providerId));
  const others = history.filter((entry) => !recordingNow.includes(entry) && !toFinish.includes(entry));
  const rows = (entries: HistoryEntry[], labelledBy: string, testId: string) => (
    <table aria-labelledby={labelledBy} data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Encounter</th>
          <th scope="col">State</th>
          <th scope="col">
            <span className="visually-hidden">Action</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.slice(0, 20).map((entry) => {
          const id = railEncounterId(entry);
          return (
            <tr
              key={entry.sessionId}
              data-state={entry.state}
              data-actions={finishable(entry) ? 'two' : 'one'}
              aria-current={entry.sessionId === openSession ? 'true' : undefined}
            >
              <td className="history-time">
                <time
                  dateTime={new Date(entry.startedAt).toISOString()}
                  title={fullTime.format(entry.startedAt)}
                >
                  {railTime(entry.startedAt, now)}
                </time>
              </td>
              {/* The whole ID for a screen reader and the row's name, where the eye gets its ends. */}
              <td className="history-encounter" title={id.full} aria-label={id.full}>
                {id.shown}
              </td>
              <td className="history-state">
                {entry.finishedAt !== undefined ? 'Finished: in the EHR' : STATE_WORDS[entry.state]}
                {entry.consent && (
                  <span className="muted history-consent" data-testid="history-consent">
                    {' '}
                    · consent {entry.consent.method}, {railTime(entry.consent.at, now)}
                  </span>
                )}
              </td>
              <td className="history-action">
                {finishable(entry) && (
                  <InterruptedActions
                    encounterId={id.full}
                    sessionId={entry.sessionId}
                    verb={entry.state === 'failed' ? 'Try again' : 'Finish'}
                  />
                )}
                {entry.state !== 'cancelled' &&
                  !finishable(entry) &&
                  entry.state !== 'finishing' &&
                  entry.sessionId !== recordingSession && (
                    <button
                      type="button"
                      className="link-button"
                      aria-label={`Open ${id.full}`}
                      onClick={() => void reopen(entry.sessionId)}
                    >
                      {entry.state === 'failed' || entry.state === 'processing' ? 'Check again' : 'Open'}
                    </button>
                  )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );

  return (
    <section className="card history" aria-labelledby={headingId} data-testid="history">
      <h2 id={headingId}>Visits on this computer</h2>
      {/* The rail is narrow: what History keeps, and for how long, is one click away. */}
      <details className="history-about">
        <summary>What is kept here</summary>
        <p className="muted">
          Notes are kept by the service, not on this computer; opening a visit fetches its note.
        </p>
        <p className="muted" data-testid="audio-retention">
          {replayAudio
            ? 'A visit’s audio stays on this computer, encrypted, only until the service has it; once its note is here, for you alone, so you can play its lines back, until you mark it finished. Discarded, it goes at once; a visit without a note keeps it 10 minutes; none is kept longer than '
            : 'A visit’s audio stays on this computer, encrypted, only until the service has it: deleted 10 minutes after its note arrives, or when you discard it, and never kept longer than '}
          {retentionDays ?? 7} days.
          {keyInMemoryOnly &&
            ' This computer has no keyring, so audio left unfinished cannot be read after the app restarts.'}
        </p>
        <p className="muted" data-testid="edits-retention">
          Your edits of a note, and the patient&apos;s date of birth and sex it names, stay on this computer,
          encrypted and for you alone, until you mark the visit finished (then they are deleted), and never
          longer than {retentionDays ?? 7} days.
        </p>
      </details>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {recordingNow.length > 0 && (
        <>
          <h3 className="history-group" id={`${headingId}-now`}>
            Now
          </h3>
          {rows(recordingNow, `${headingId}-now`, 'history-now')}
        </>
      )}
      {toFinish.length > 0 && (
        <>
          <h3 className="history-group" id={`${headingId}-to-finish`}>
            To finish ({toFinish.length})
          </h3>
          {rows(toFinish, `${headingId}-to-finish`, 'history-to-finish')}
        </>
      )}
      {others.length > 0 && (
        <>
          {(toFinish.length > 0 || recordingNow.length > 0) && (
            <h3 className="history-group" id={`${headingId}-others`}>
              {toFinish.length > 0 ? 'Finished and others' : 'Earlier'}
            </h3>
          )}
          {rows(
            others,
            toFinish.length > 0 || recordingNow.length > 0 ? `${headingId}-others` : headingId,
            'history-others',
          )}
        </>
      )}
    </section>
  );
}

/** Its audio is on this computer and did not reach the service: it can be sent again or discarded. */
function finishable(entry: HistoryEntry): boolean {
  return entry.state === 'interrupted' || (entry.state === 'failed' && entry.audioKept === true);
}

/**
 * The audio of an interrupted (or failed) visit is on this computer: finish it (send the rest,
 * make the note) or discard it, asking first since a discarded visit cannot be recorded again.
 */
function InterruptedActions(props: { encounterId: string; sessionId: string; verb: 'Finish' | 'Try again' }) {
  const finish = useAppStore((s) => s.finishInterrupted);
  const discard = useAppStore((s) => s.discardInterrupted);
  const [confirming, setConfirming] = useState(false);
  if (confirming) {
    return (
      <span className="confirm" role="group" aria-label={`Discard ${props.encounterId}?`}>
        <span>Its audio will be deleted.</span>
        <span className="confirm-buttons">
          <button type="button" className="danger-button" onClick={() => void discard(props.sessionId)}>
            Discard
          </button>
          <button type="button" className="link-button" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </span>
      </span>
    );
  }
  return (
    <span className="actions">
      <button
        type="button"
        aria-label={`${props.verb} ${props.encounterId}`}
        onClick={() => void finish(props.sessionId)}
      >
        {props.verb}
      </button>
      <button
        type="button"
        className="link-button"
        aria-label={`Discard ${props.encounterId}…`}
        onClick={() => setConfirming(true)}
      >
        Discard…
      </button>
    </span>
  );
}
