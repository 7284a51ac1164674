import { useId } from 'react';
import type { ConsentMethod } from '../../../shared/consent';
import { useAppStore } from '../../store/use-app-store';

/**
 * The patient's consent, checked in the room before Start (issue 29): one line, "The patient
 * agreed to be recorded", how (said or signed), and the words to read. "Asked": it may be left
 * unchecked; "required" (the organisation's policy): Start waits for it.
 */
export function ConsentCheck() {
  const id = useId();
  const mode = useAppStore((s) => s.settings?.consent ?? 'off');
  const wording = useAppStore((s) => s.settings?.consentWording ?? '');
  const consent = useAppStore((s) => s.draft?.consent);
  const problem = useAppStore((s) => s.draftProblems.consent);
  const edit = useAppStore((s) => s.editDraft);
  if (mode === 'off' || !consent) return null;
  const set = (next: Partial<{ given: boolean; method: ConsentMethod }>) =>
    edit({ consent: { ...consent, ...next } });
  return (
    <fieldset className="consent-check" data-testid="consent-check" aria-describedby={`${id}-words`}>
      <legend className="visually-hidden">Patient consent</legend>
      <label className="choice consent-given">
        <input
          type="checkbox"
          checked={consent.given}
          onChange={(event) => set({ given: event.target.checked })}
          aria-invalid={problem !== undefined}
        />
        The patient agreed to be recorded{mode === 'required' ? ' (required)' : ''}
      </label>
      <span className="consent-method" role="radiogroup" aria-label="How the patient agreed">
        {(['verbal', 'written'] as const).map((method) => (
          <label className="choice" key={method}>
            <input
              type="radio"
              name={`${id}-method`}
              value={method}
              checked={consent.method === method}
              onChange={() => set({ method, given: true })}
            />
            {method === 'verbal' ? 'Verbally' : 'In writing'}
          </label>
        ))}
      </span>
      <details className="consent-words">
        <summary>What to say</summary>
        <p id={`${id}-words`}>{wording}</p>
      </details>
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
