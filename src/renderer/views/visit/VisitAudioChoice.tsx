import { useId } from 'react';
import { VISIT_AUDIO_MODES, VISIT_AUDIO_WORDS, type VisitAudio } from '../../../shared/visit-audio';
import { useAppStore } from '../../store/use-app-store';
import { useLockedSetting } from '../locked-settings';
import './visit-audio.css';

/** What each choice records, in one line under its name. */
const WHAT_IT_RECORDS: Record<VisitAudio, string> = {
  room: 'The microphone hears you and the patient.',
  telehealth:
    'For a video visit: the patient’s voice from the call is recorded with yours. Start asks which call.',
};

/**
 * Where the patient is, before Start (issue 30): in the room, or on a video call whose sound this
 * computer plays. Two large options side by side, a radio group (arrow keys move between them),
 * the choice remembered for the next visit; set by the organisation's policy, it is shown and
 * cannot be changed.
 */
export function VisitAudioChoice() {
  const id = useId();
  const chosen = useAppStore((s) => s.settings?.visitAudio ?? 'room');
  const save = useAppStore((s) => s.saveSettings);
  const locked = useLockedSetting('visitAudio');
  return (
    <fieldset
      className="visit-audio"
      data-testid="visit-audio"
      aria-describedby={locked ? `${id}-locked` : undefined}
    >
      <legend>Where is the patient?</legend>
      <div className="visit-audio-options">
        {VISIT_AUDIO_MODES.map((mode) => (
          <label key={mode} className="visit-audio-option" data-chosen={mode === chosen}>
            <input
              type="radio"
              name={`${id}-visit-audio`}
              value={mode}
              checked={mode === chosen}
              disabled={locked}
              // The whole card is the label (a large target); its name is the option's name alone.
              aria-labelledby={`${id}-${mode}-name`}
              aria-describedby={`${id}-${mode}`}
              // Remembered at once: the next visit, and the next launch, start with this choice.
              onChange={() => void save({ visitAudio: mode })}
            />
            <span id={`${id}-${mode}-name`} className="visit-audio-name">
              {VISIT_AUDIO_WORDS[mode]}
            </span>
            <span id={`${id}-${mode}`} className="hint">
              {WHAT_IT_RECORDS[mode]}
            </span>
          </label>
        ))}
      </div>
      {locked && (
        <p id={`${id}-locked`} className="hint">
          Set by your organisation.
        </p>
      )}
    </fieldset>
  );
}
