import { useEffect, useId } from 'react';
import type { HistoryState } from '../../shared/contract';
import { useAppStore } from '../store/use-app-store';

const STATE_WORDS: Record<HistoryState, string> = {
  recording: 'Recording',
  processing: 'Processing at the service',
  done: 'Note ready',
  skipped: 'No note: no usable speech',
  failed: 'Failed',
  cancelled: 'Discarded',
};

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The visits recorded on this computer, newest first. Opening one fetches its note from the
 * service again: this device keeps no note text or transcript.
 */
export function HistoryView() {
  const headingId = useId();
  const history = useAppStore((s) => s.history);
  const error = useAppStore((s) => s.historyError);
  const load = useAppStore((s) => s.loadHistory);
  const reopen = useAppStore((s) => s.reopen);
  const recordingSession = useAppStore((s) => s.recorder?.sessionId);
  useEffect(() => void load(), [load]);
  if (history.length === 0 && !error) return null;

  return (
    <section className="card history" aria-labelledby={headingId} data-testid="history">
      <h2 id={headingId}>Earlier visits on this computer</h2>
      <p className="muted">
        Notes are kept by the service, not on this computer; opening a visit fetches its note.
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <table>
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
          {history.slice(0, 20).map((entry) => (
            <tr key={entry.sessionId} data-state={entry.state}>
              <td>{timeFormat.format(entry.startedAt)}</td>
              <td>{entry.encounterId}</td>
              <td>{STATE_WORDS[entry.state]}</td>
              <td>
                {entry.state !== 'cancelled' && entry.sessionId !== recordingSession && (
                  <button
                    type="button"
                    className="link-button"
                    aria-label={`Open ${entry.encounterId}`}
                    onClick={() => void reopen(entry.sessionId)}
                  >
                    {entry.state === 'failed' || entry.state === 'processing' ? 'Check again' : 'Open'}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
