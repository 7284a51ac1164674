import { useState } from 'react';

/**
 * Copies plain text for an EHR field and says so; says what to do when the clipboard refuses.
 * `label` names what is copied for screen readers; the button itself says `text`.
 */
export function CopyButton({
  text,
  label,
  visible = 'Copy',
  small = false,
}: {
  text: string;
  label: string;
  visible?: string;
  /** A section's own Copy: lighter than Copy all, so the text keeps the eye. */
  small?: boolean;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  return (
    <span className="copy">
      <button
        type="button"
        className={small ? 'link-button small' : 'link-button'}
        aria-label={label}
        onClick={() => void copy()}
      >
        {visible}
      </button>
      <span role="status" className="copy-state">
        {state === 'copied' && 'Copied.'}
        {state === 'failed' && 'Could not copy: select the text and copy it by hand.'}
      </span>
    </span>
  );
}
