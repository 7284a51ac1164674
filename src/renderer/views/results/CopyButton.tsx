import { useId, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { announcement, copyConfirmation } from '../../results/copy-confirmation';
import { useShortcut, type Shortcut } from '../shortcuts';
import './copy.css';

/** useShortcut's place holder for a Copy without a shortcut (never active). */
const NO_SHORTCUT: Shortcut = { key: '', aria: '', label: '' };

/**
 * Copies plain text for an EHR field. The button itself confirms it (issue 31): its label turns to
 * "Copied" for two seconds, in the same width, so nothing around it moves; a copy anywhere else
 * ends it at once, since only the last copy is on the clipboard. A refused copy says what to do,
 * under the button, over what follows it rather than pushing it down.
 */
export function CopyButton({
  text,
  what,
  visible = 'Copy',
  small = false,
  shortcut,
}: {
  text: string;
  /** What is copied, for screen readers: "Copy {what}", "Copied: {what}." */
  what: string;
  visible?: ReactNode;
  /** A section's own Copy: lighter than Copy all, so the text keeps the eye. */
  small?: boolean;
  /** Its keyboard shortcut, anywhere in the window while the button is shown; the button shows it. */
  shortcut?: Shortcut;
}) {
  const id = useId();
  const shown = useStore(copyConfirmation, (s) => (s.shown?.control === id ? s.shown.outcome : null));
  const confirm = useStore(copyConfirmation, (s) => s.confirm);
  const copy = () =>
    navigator.clipboard.writeText(text).then(
      () => confirm(id, 'copied', what),
      () => confirm(id, 'failed', what),
    );
  useShortcut(shortcut ?? NO_SHORTCUT, shortcut !== undefined, () => void copy());
  return (
    <span className="copy" data-copied={shown === 'copied'}>
      <button
        type="button"
        className={small ? 'link-button small' : 'link-button'}
        aria-label={`Copy ${what}`}
        aria-keyshortcuts={shortcut?.aria}
        onClick={() => void copy()}
      >
        {/* Both labels always laid out in one cell: the button is as wide as the wider one. */}
        <span className="copy-labels">
          <span data-shown={shown !== 'copied'}>
            {visible}
            {shortcut && <kbd>{shortcut.label}</kbd>}
          </span>
          <span data-shown={shown === 'copied'} aria-hidden="true" data-testid="copied">
            ✓ Copied
          </span>
        </span>
      </button>
      {shown === 'failed' && (
        <span className="copy-problem" aria-hidden="true">
          Could not copy: select the text and copy it by hand.
        </span>
      )}
    </span>
  );
}

/**
 * The window's one polite live region for copies: "Copied: Chief complaint." once per copy, for
 * every Copy control wherever it is (the Note and Forms tabs, the keyboard's Copy all).
 */
export function CopyAnnouncer() {
  const words = useStore(copyConfirmation, (s) => announcement(s.shown));
  return (
    <span role="status" className="visually-hidden" data-testid="copy-status">
      {words}
    </span>
  );
}
