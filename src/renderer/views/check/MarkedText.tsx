import type { ReactNode } from 'react';
import { flagName, type CheckFlag } from '../../verify';
import './check.css';

/** A flag of the check as the section shows it: its name for Checked, and whether it is. */
export interface SectionMark {
  flag: CheckFlag;
  key: string;
  checked: boolean;
}

interface Props {
  text: string;
  marks: readonly SectionMark[];
  /** The key of the mark whose panel is open; null when none is. */
  open: string | null;
  onOpen(key: string | null): void;
  /** The panel the marks open (aria-controls). */
  panelId: string;
}

/**
 * A section's text with each value the check flagged marked in place (issue 38): a button the
 * keyboard reaches, named `Check: 1000 mg: said 500 mg` or `Check: 1000 mg: not in what was said`,
 * or `Checked: 1000 mg` once the clinician has. Only what is shown: Copy reads the text, never this.
 */
export function MarkedText({ text, marks, open, onOpen, panelId }: Props) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const mark of [...marks].sort((a, b) => a.flag.start - b.flag.start)) {
    // Flags never overlap (one value, one flag); if two did, the first one wins.
    if (mark.flag.start < at) continue;
    parts.push(text.slice(at, mark.flag.start));
    const isOpen = open === mark.key;
    parts.push(
      <button
        key={mark.key}
        type="button"
        className="check-mark"
        data-checked={mark.checked}
        data-testid="check-mark"
        data-check-key={mark.key}
        aria-label={mark.checked ? `Checked: ${mark.flag.written}` : flagName(mark.flag)}
        aria-expanded={isOpen}
        aria-controls={panelId}
        // The section's text opens its editor on a click; a mark opens its check instead.
        onClick={(event) => {
          event.stopPropagation();
          onOpen(isOpen ? null : mark.key);
        }}
      >
        {text.slice(mark.flag.start, mark.flag.end)}
      </button>,
    );
    at = mark.flag.end;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}
