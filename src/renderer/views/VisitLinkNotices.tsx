import { useEffect, useRef } from 'react';
import { RECORDING_STATES } from '../store/recording-states';
import { useAppStore } from '../store/use-app-store';

/**
 * Opens a visit link's visit (issue 18) in the pane, ready to start: at once when it arrives with
 * no visit recording (leaving Settings or an earlier note: the EHR's click is the patient now in
 * the room); a link that came while a visit recorded waits until the pane is ready again (New
 * visit, or the recording cancelled), so the ended visit's note is not taken off the screen.
 */
export function useOpenLinkedVisits(options: { enabled: boolean; leaveSettings(): void }): void {
  const next = useAppStore((s) => s.visitLinks.next);
  const waiting = useAppStore((s) => s.waitingLinkId !== null && s.waitingLinkId === s.visitLinks.next?.id);
  const recording = useAppStore((s) => RECORDING_STATES.has(s.recorder?.state ?? 'idle'));
  const starting = useAppStore((s) => s.openingMicrophone);
  const paneIsReady = useAppStore((s) => s.endedAt === null && s.resultsFor === null);
  const openLinkedVisit = useAppStore((s) => s.openLinkedVisit);
  const opening = useRef<number | null>(null);
  const { enabled, leaveSettings } = options;

  useEffect(() => {
    if (!next || !enabled || recording || starting || opening.current === next.id) return;
    if (waiting && !paneIsReady) return;
    opening.current = next.id;
    leaveSettings();
    void openLinkedVisit().finally(() => (opening.current = null));
  }, [next, enabled, recording, starting, waiting, paneIsReady, openLinkedVisit, leaveSettings]);
}

/**
 * What the EHR's links did, under the top bar: a link's visit waiting while another records (or
 * its note is on screen), and a link that could not be used, with each problem, until dismissed.
 */
export function VisitLinkNotices() {
  const next = useAppStore((s) => s.visitLinks.next);
  const waiting = useAppStore((s) => s.waitingLinkId !== null && s.waitingLinkId === s.visitLinks.next?.id);
  const recording = useAppStore((s) => RECORDING_STATES.has(s.recorder?.state ?? 'idle'));
  const refused = useAppStore((s) => s.visitLinks.refused);
  const error = useAppStore((s) => s.visitLinkError);
  const dismiss = useAppStore((s) => s.dismissRefusedLink);
  if (!(next && waiting) && !refused && !error) return null;
  return (
    <div className="visit-link-notices">
      {next && waiting && (
        <p className="warning" role="status" data-testid="visit-link-waiting">
          The EHR opened visit <strong>{next.link.encounterId}</strong>.{' '}
          {recording
            ? 'It waits as the next visit; this recording goes on.'
            : 'New visit opens it, filled in.'}
        </p>
      )}
      {error && (
        <p className="warning" role="alert">
          {error}
        </p>
      )}
      {refused && (
        <div className="warning" role="alert" data-testid="visit-link-refused">
          <p>The visit link from the EHR could not be used; nothing was filled in:</p>
          <ul>
            {refused.problems.map((problem) => (
              <li key={`${problem.field} ${problem.rule}`}>
                <code>{problem.field}</code> {problem.rule}
              </li>
            ))}
          </ul>
          <button type="button" className="link-button" onClick={() => void dismiss()}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
