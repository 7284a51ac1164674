import { useEffect, useRef } from 'react';
import { RECORDING_STATES } from '../store/recording-states';
import { useAppStore } from '../store/use-app-store';
import { linkQuestion, type LinkQuestion } from '../store/visit-link-slice';

/**
 * Opens a visit link's visit (issue 18) in the pane, ready to start: at once when it arrives with
 * no visit recording (leaving Settings or an earlier note: the EHR's click is the patient now in
 * the room); a link that came while a visit recorded waits until the pane is ready again (New
 * visit, or the recording cancelled), so the ended visit's note is not taken off the screen.
 */
export function useOpenLinkedVisits(options: {
  enabled: boolean;
  settingsOpen: boolean;
  leaveSettings(): void;
}): void {
  const next = useAppStore((s) => s.visitLinks.next);
  // A switch of provider, Settings open or details typed: the notice asks first (issue 28).
  const mustAsk = useAppStore((s) => linkQuestion(s, options.settingsOpen) !== undefined);
  const waiting = useAppStore((s) => s.waitingLinkId !== null && s.waitingLinkId === s.visitLinks.next?.id);
  const recording = useAppStore((s) => RECORDING_STATES.has(s.recorder?.state ?? 'idle'));
  const starting = useAppStore((s) => s.openingMicrophone);
  const paneIsReady = useAppStore((s) => s.endedAt === null && s.resultsFor === null);
  const openLinkedVisit = useAppStore((s) => s.openLinkedVisit);
  const opening = useRef<number | null>(null);
  const { enabled, leaveSettings } = options;

  useEffect(() => {
    if (!next || !enabled || recording || starting || mustAsk || opening.current === next.id) return;
    if (waiting && !paneIsReady) return;
    opening.current = next.id;
    leaveSettings();
    void openLinkedVisit().finally(() => (opening.current = null));
  }, [next, enabled, recording, starting, mustAsk, waiting, paneIsReady, openLinkedVisit, leaveSettings]);
}

/**
 * What the EHR's links did, under the top bar: a link's visit waiting while another records (or
 * its note is on screen), and a link that could not be used, with each problem, until dismissed.
 */
export function VisitLinkNotices(props: { settingsOpen: boolean; leaveSettings(): void }) {
  const next = useAppStore((s) => s.visitLinks.next);
  const question = useAppStore((s) => linkQuestion(s, props.settingsOpen));
  const waiting = useAppStore((s) => s.waitingLinkId !== null && s.waitingLinkId === s.visitLinks.next?.id);
  const recording = useAppStore((s) => RECORDING_STATES.has(s.recorder?.state ?? 'idle'));
  const refused = useAppStore((s) => s.visitLinks.refused);
  const error = useAppStore((s) => s.visitLinkError);
  const dismiss = useAppStore((s) => s.dismissRefusedLink);
  const askNow = next && question && !recording && !waiting;
  if (!(next && waiting) && !askNow && !refused && !error) return null;
  return (
    <div className="visit-link-notices">
      {askNow && (
        <LinkQuestionPrompt
          question={question}
          encounterId={next.link.encounterId}
          providerSwitch={next.providerSwitch}
          leaveSettings={props.leaveSettings}
        />
      )}
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
          {refused.reason ? (
            <p data-testid="visit-link-refused-reason">{refused.reason}</p>
          ) : (
            <>
              <p>The visit link from the EHR could not be used; nothing was filled in:</p>
              <ul>
                {refused.problems.map((problem) => (
                  <li key={`${problem.field} ${problem.rule}`}>
                    <code>{problem.field}</code> {problem.rule}
                  </li>
                ))}
              </ul>
            </>
          )}
          <button type="button" className="link-button" onClick={() => void dismiss()}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}

/**
 * A link's visit that waits for the clinician's word (issue 28): a switch of provider the policy
 * allows, or a visit that would take the window out of Settings or replace typed details.
 */
function LinkQuestionPrompt(props: {
  question: LinkQuestion;
  encounterId: string;
  providerSwitch: { from: string; to: string } | undefined;
  leaveSettings(): void;
}) {
  const open = useAppStore((s) => s.openLinkedVisit);
  const decline = useAppStore((s) => s.declineLinkedVisit);
  const { question, encounterId, providerSwitch } = props;
  const [sentence, yes, no] =
    question === 'switch-provider' && providerSwitch
      ? [
          `This link from the EHR is for ${providerSwitch.to}; you are signed in as ${providerSwitch.from || 'nobody'}. Sign in as ${providerSwitch.to} for it?`,
          `Sign in as ${providerSwitch.to}`,
          providerSwitch.from ? `Stay signed in as ${providerSwitch.from}` : 'Not now',
        ]
      : question === 'leave-settings'
        ? [`The EHR opened visit ${encounterId}. Leave Settings and open it?`, 'Open the visit', 'Stay here']
        : [
            `The EHR opened visit ${encounterId}. Replace the visit details you typed?`,
            'Open the EHR’s visit',
            'Keep mine',
          ];
  return (
    <div
      className="warning link-question"
      role="group"
      aria-label="Visit from the EHR"
      data-testid="visit-link-question"
    >
      <p>{sentence}</p>
      <button
        type="button"
        onClick={() => {
          props.leaveSettings();
          void open(question === 'switch-provider' ? { switchProvider: true } : {});
        }}
      >
        {yes}
      </button>{' '}
      <button type="button" className="link-button" onClick={() => void decline()}>
        {no}
      </button>
    </div>
  );
}
