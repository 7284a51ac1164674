import type { Settings } from '../../../shared/settings';
import { Field } from '../Field';
import type { DraftFieldsProps } from './setup-draft';

const WORDS: Record<Settings['checksBeforeFinish'], string> = {
  off: 'Finished does not ask',
  ask: 'Finished asks once (the default)',
  required: 'Finished waits until each is edited or marked Checked',
};

/** What Finished does while the note's check still flags values (issue 38). */
export function NoteCheckField({ draft, update, problems }: DraftFieldsProps) {
  return (
    <Field
      label="Values to check before Finished"
      hint="The note marks a dose, a side or a “no” that the lines it came from do not say."
      problem={problems.checksBeforeFinish}
      setting="checksBeforeFinish"
    >
      {(props) => (
        <select
          {...props}
          value={draft.checksBeforeFinish}
          onChange={(e) => update({ checksBeforeFinish: e.target.value as Settings['checksBeforeFinish'] })}
        >
          {(Object.keys(WORDS) as Settings['checksBeforeFinish'][]).map((mode) => (
            <option key={mode} value={mode}>
              {WORDS[mode]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
