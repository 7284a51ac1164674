import { useId, type ReactNode } from 'react';
import { useLockedSetting } from './locked-settings';

interface ControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
  /** Set by the organisation's policy: shown, not changed. */
  disabled?: boolean;
}

/**
 * A labelled control with an optional hint and a problem sentence tied to it for screen readers.
 * `setting`: the setting it edits; one the organisation's policy locks is shown read-only with
 * "Set by your organisation".
 */
export function Field(props: {
  label: string;
  hint?: string;
  problem?: string;
  setting?: string;
  children: (controlProps: ControlProps) => ReactNode;
}) {
  const id = useId();
  const locked = useLockedSetting(props.setting);
  const hint = locked ? ['Set by your organisation.', props.hint].filter(Boolean).join(' ') : props.hint;
  const hintId = hint ? `${id}-hint` : undefined;
  const problemId = props.problem ? `${id}-problem` : undefined;
  const describedBy = [hintId, problemId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({
        id,
        'aria-invalid': Boolean(props.problem),
        'aria-describedby': describedBy,
        ...(locked ? { disabled: true } : {}),
      })}
      {hint && (
        <p id={hintId} className="hint">
          {hint}
        </p>
      )}
      {props.problem && (
        <p id={problemId} className="problem" role="alert">
          {props.problem}
        </p>
      )}
    </div>
  );
}
