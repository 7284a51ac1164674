import type { HistoryEntry } from '../../shared/contract';
import { consentLine } from '../../shared/consent';

/**
 * The lines that close Copy all after the note (issues 29 and 37), what a claim needs besides it:
 * "Video visit (telehealth)." for a telehealth visit, then the patient's consent with its date and
 * time as the window writes them (`when`). None for a visit with neither.
 */
export function visitRecordLines(entry: HistoryEntry | undefined, when: (at: number) => string): string[] {
  if (!entry) return [];
  return [
    ...(entry.video ? ['Video visit (telehealth).'] : []),
    ...(entry.consent ? [consentLine(entry.consent, when)] : []),
  ];
}
