import {
  AUDIO_RETENTION_MAX_DAYS,
  AUDIO_RETENTION_MIN_DAYS,
  AUTO_PAUSE_MAX_MS,
  AUTO_PAUSE_MIN_MS,
  IDLE_LOCK_MAX_MINUTES,
  IDLE_LOCK_MIN_MINUTES,
  type Settings,
} from '../../../shared/settings';
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
          setting="voiceDetection"
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
        <NumberField
          label="Auto-pause after (seconds without speech)"
          hint="2 to 20 seconds. Shorter sends less silence; longer keeps a thinking pause in one stretch."
          problem={problems.autoPauseAfterMs}
          setting="autoPauseAfterMs"
          min={AUTO_PAUSE_MIN_MS / 1000}
          max={AUTO_PAUSE_MAX_MS / 1000}
          decimals
          value={draft.autoPauseSeconds}
          onChange={(autoPauseSeconds) => update({ autoPauseSeconds })}
        />
      </fieldset>
    </>
  );
}

const CONSENT_WORDS: Record<Settings['consent'], string> = {
  off: 'Not asked',
  ask: 'Asked before each recording (can be skipped)',
  required: 'Required before each recording',
};

/** Whether Start asks for the patient's consent, and what is read to them (issue 29). */
export function ConsentFields({ draft, update, problems }: DraftFieldsProps) {
  return (
    <fieldset>
      <legend>Patient consent</legend>
      <Field
        label="Consent to be recorded"
        hint="Where the law or your organisation asks every party's consent, Start asks for it; the note then says how and when it was given."
        problem={problems.consent}
        setting="consent"
      >
        {(props) => (
          <select
            {...props}
            value={draft.consent}
            onChange={(e) => update({ consent: e.target.value as Settings['consent'] })}
          >
            {(Object.keys(CONSENT_WORDS) as Settings['consent'][]).map((mode) => (
              <option key={mode} value={mode}>
                {CONSENT_WORDS[mode]}
              </option>
            ))}
          </select>
        )}
      </Field>
      {draft.consent !== 'off' && (
        <Field
          label="What to say to the patient"
          hint="Shown beside the consent check; kept with each visit's consent."
          problem={problems.consentWording}
          setting="consentWording"
        >
          {(props) => (
            <textarea
              {...props}
              rows={3}
              value={draft.consentWording}
              onChange={(e) => update({ consentWording: e.target.value })}
            />
          )}
        </Field>
      )}
    </fieldset>
  );
}

/** A number typed in a short field, between `min` and `max` (the schema names a wrong one on Save). */
function NumberField(props: {
  label: string;
  hint: string;
  problem: string | undefined;
  min: number;
  max: number;
  value: string;
  decimals?: boolean;
  /** The setting it edits (a locked one is read-only). */
  setting: string;
  onChange(value: string): void;
}) {
  return (
    <Field label={props.label} hint={props.hint} problem={props.problem} setting={props.setting}>
      {(control) => (
        <input
          {...control}
          className="short-input"
          type="number"
          inputMode={props.decimals ? 'decimal' : 'numeric'}
          min={props.min}
          max={props.max}
          step={1}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** How long an unfinished visit's audio may stay on this computer: the organisation's rule. */
export function RetentionField({ draft, update, problems }: DraftFieldsProps) {
  return (
    <NumberField
      label="Keep unfinished visits' audio for (days)"
      hint="1 to 30 days. Audio that has not reached the service is kept this long, encrypted, then deleted. Audio of a visit with its note goes when the note is Finished, or 10 minutes after it arrives when the recording is not kept to play back."
      problem={problems.audioRetentionDays}
      setting="audioRetentionDays"
      min={AUDIO_RETENTION_MIN_DAYS}
      max={AUDIO_RETENTION_MAX_DAYS}
      value={draft.retentionDays}
      onChange={(retentionDays) => update({ retentionDays })}
    />
  );
}

/** How soon an unattended window forgets the patient on screen. */
export function IdleLockField({ draft, update, problems }: DraftFieldsProps) {
  return (
    <NumberField
      label="Lock after (minutes without use)"
      hint="1 to 60 minutes. The window then clears every note, transcript and patient detail. Never while recording."
      problem={problems.idleLockMinutes}
      setting="idleLockMinutes"
      min={IDLE_LOCK_MIN_MINUTES}
      max={IDLE_LOCK_MAX_MINUTES}
      value={draft.idleLockMinutes}
      onChange={(idleLockMinutes) => update({ idleLockMinutes })}
    />
  );
}
