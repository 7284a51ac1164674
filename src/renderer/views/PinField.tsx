import type { RefObject } from 'react';
import { Field } from './Field';

/**
 * A PIN typed into the window (issue 29): digits on a number pad, hidden, never offered to the
 * browser's password manager, and uncontrolled, so the PIN lives in no React state.
 */
export function PinField(props: {
  label: string;
  hint?: string;
  problem?: string | undefined;
  inputRef: RefObject<HTMLInputElement | null>;
  testId: string;
}) {
  return (
    <Field
      label={props.label}
      {...(props.hint ? { hint: props.hint } : {})}
      {...(props.problem ? { problem: props.problem } : {})}
    >
      {(controlProps) => (
        <input
          {...controlProps}
          ref={props.inputRef}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          maxLength={12}
          data-testid={props.testId}
        />
      )}
    </Field>
  );
}
