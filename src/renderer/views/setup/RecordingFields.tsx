import type { Settings } from '../../../shared/settings';
import { SENSITIVITIES, SENSITIVITY_WORDS } from '../../settings/voice-sensitivity';
import { Field } from '../Field';
import type { Draft, DraftFieldsProps } from './setup-draft';

const PROCESSING_WORDS: Record<keyof Settings['audioProcessing'], string> = {
  echoCancellation: 'Echo cancellation',
  noiseSuppression: 'Noise suppression',
  autoGainControl: 'Automatic gain',
};

/** The first problem of a group of fields (voiceDetection.*), for the one control that sets them. */
function problemUnder(problems: Record<string, string>, prefix: string): string | undefined {
  return Object.entries(problems).find(([field]) => field === prefix || field.startsWith(`${prefix}.`))?.[1];
}

/** How the clinician records: the microphone's own processing, and pausing on silence. */
export function RecordingFields({ draft, update, problems }: DraftFieldsProps) {
  return (
    <>
      <fieldset>
        <legend>Microphone processing</legend>
        <p className="hint">
          Off unless your room needs it: the service wants the room as it is, and these can remove quiet
          speech.
        </p>
        {(Object.keys(PROCESSING_WORDS) as (keyof Settings['audioProcessing'])[]).map((key) => (
          <label className="choice" key={key}>
            <input
              type="checkbox"
              checked={draft.audioProcessing[key]}
              onChange={(e) =>
                update({ audioProcessing: { ...draft.audioProcessing, [key]: e.target.checked } })
              }
            />
            {PROCESSING_WORDS[key]}
          </label>
        ))}
      </fieldset>

      <fieldset>
        <legend>Pausing on silence</legend>
        <Field
          label="Voice detection sensitivity"
          hint="How readily a sound counts as speech. Recording pauses itself when nobody speaks and resumes on speech."
          problem={problemUnder(problems, 'voiceDetection')}
        >
          {(props) => (
            <select
              {...props}
              value={draft.sensitivity}
              onChange={(e) => update({ sensitivity: e.target.value as Draft['sensitivity'] })}
            >
              {SENSITIVITIES.map((s) => (
                <option key={s} value={s}>
                  {SENSITIVITY_WORDS[s]}
                </option>
              ))}
              {draft.sensitivity === 'custom' && (
                <option value="custom">Custom (tuned by your IT admin)</option>
              )}
            </select>
          )}
        </Field>
        <Field
          label="Auto-pause after (seconds without speech)"
          hint="2 to 20 seconds. Shorter sends less silence; longer keeps a thinking pause in one stretch."
          problem={problems.autoPauseAfterMs}
        >
          {(props) => (
            <input
              {...props}
              className="short-input"
              type="number"
              inputMode="decimal"
              min={2}
              max={20}
              step={1}
              value={draft.autoPauseSeconds}
              onChange={(e) => update({ autoPauseSeconds: e.target.value })}
            />
          )}
        </Field>
      </fieldset>
    </>
  );
}

/** How long an unfinished visit's audio may stay on this computer: the organisation's rule. */
export function RetentionField({ draft, update, problems }: DraftFieldsProps) {
  return (
    <Field
      label="Keep unfinished visits' audio for (days)"
      hint="1 to 30 days. Audio that has not reached the service is kept this long, encrypted, then deleted. Audio of a visit with its note is deleted 10 minutes after the note arrives."
      problem={problems.audioRetentionDays}
    >
      {(props) => (
        <input
          {...props}
          className="short-input"
          type="number"
          inputMode="numeric"
          min={1}
          max={30}
          step={1}
          value={draft.retentionDays}
          onChange={(e) => update({ retentionDays: e.target.value })}
        />
      )}
    </Field>
  );
}

/** How soon an unattended window forgets the patient on screen. */
export function IdleLockField({ draft, update, problems }: DraftFieldsProps) {
  return (
    <Field
      label="Lock after (minutes without use)"
      hint="1 to 60 minutes. The window then clears every note, transcript and patient detail. Never while recording."
      problem={problems.idleLockMinutes}
    >
      {(props) => (
        <input
          {...props}
          className="short-input"
          type="number"
          inputMode="numeric"
          min={1}
          max={60}
          step={1}
          value={draft.idleLockMinutes}
          onChange={(e) => update({ idleLockMinutes: e.target.value })}
        />
      )}
    </Field>
  );
}
