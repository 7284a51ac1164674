import type { RefObject } from 'react';
import { useAppStore } from '../../store/use-app-store';
import { Field } from '../Field';

/**
 * The partner token of a Bearer or Single Auth Token partner: typed once, handed to main to keep
 * (encrypted where the system allows), and never shown again. The field is uncontrolled so the
 * token lives in no React state, and is emptied once main has it; only "stored" is ever shown.
 */
export function PartnerTokenField(props: { inputRef: RefObject<HTMLInputElement | null>; onInput(): void }) {
  const stored = useAppStore((s) => s.secrets?.partnerTokenStored ?? false);
  const notice = useAppStore((s) => s.secrets?.notice);
  // Its own rule (typed now), or missing altogether (named with the other service fields).
  const problem = useAppStore((s) => s.partnerTokenProblem ?? s.fieldProblems.partnerToken);
  const hint = [
    stored
      ? 'Stored — enter a new one to replace it.'
      : 'From your IT admin. The app keeps it on this computer and never shows it again.',
    notice,
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Field label="Partner token" hint={hint} problem={problem ?? undefined}>
      {(controlProps) => (
        <input
          {...controlProps}
          ref={props.inputRef}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={stored ? '•••••••• stored' : ''}
          onInput={props.onInput}
          data-testid="partner-token"
        />
      )}
    </Field>
  );
}
