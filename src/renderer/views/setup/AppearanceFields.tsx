import type { Settings } from '../../../shared/settings';
import { Field } from '../Field';
import type { DraftFieldsProps } from './setup-draft';

const THEME_WORDS: Record<Settings['theme'], string> = {
  system: 'System (follows this computer)',
  light: 'Light',
  dark: 'Dark',
};

/** The theme. */
export function AppearanceFields({ draft, update, problems }: DraftFieldsProps) {
  return (
    <Field label="Theme" problem={problems.theme}>
      {(props) => (
        <select
          {...props}
          value={draft.theme}
          onChange={(e) => update({ theme: e.target.value as Settings['theme'] })}
        >
          {(Object.keys(THEME_WORDS) as Settings['theme'][]).map((theme) => (
            <option key={theme} value={theme}>
              {THEME_WORDS[theme]}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
