import { useId, type ReactNode } from 'react';

interface ControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

/** A labelled control with an optional hint and a problem sentence tied to it for screen readers. */
export function Field(props: {
  label: string;
  hint?: string;
  problem?: string;
  children: (controlProps: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = props.hint ? `${id}-hint` : undefined;
  const problemId = props.problem ? `${id}-problem` : undefined;
  const describedBy = [hintId, problemId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {props.children({ id, 'aria-invalid': Boolean(props.problem), 'aria-describedby': describedBy })}
      {props.hint && (
        <p id={hintId} className="hint">
          {props.hint}
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
