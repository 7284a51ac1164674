import { useLockedSetting } from '../locked-settings';
import type { DraftFieldsProps } from './setup-draft';

/** Whether a visit's recording stays until its note is Finished, to play a line back (issue 38). */
export function ReplayAudioField({ draft, update, problems, hintId }: DraftFieldsProps & { hintId: string }) {
  const locked = useLockedSetting('replayAudio');
  return (
    <>
      <label className="choice">
        <input
          type="checkbox"
          role="switch"
          checked={draft.replayAudio}
          aria-describedby={hintId}
          disabled={locked}
          onChange={(e) => update({ replayAudio: e.target.checked })}
        />
        Keep the recording to play back
      </label>
      <p className="hint" id={hintId}>
        The clinician who recorded a visit can play each line of its transcript until the note is marked
        Finished; the recording is deleted then. Off: it is deleted 10 minutes after the note arrives.
      </p>
      {problems.replayAudio && (
        <p className="problem" role="alert">
          {problems.replayAudio}
        </p>
      )}
    </>
  );
}
