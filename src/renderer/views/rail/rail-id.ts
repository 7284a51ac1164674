import type { HistoryEntry } from '../../../shared/contract';

/**
 * The most of an encounter ID a rail row shows whole; a longer one is cut in the middle. Ten
 * characters are what a row with its time and Open button has room for at 1366×768 (a longer cut
 * was cut again at its end by the row's own ellipsis, which is what hid the end before).
 */
const WHOLE_UP_TO = 10;
/** The end of a long ID, where EHRs put what tells one visit from the next ("…00871"). */
const END_KEPT = 5;

/**
 * An encounter ID as a rail row shows it (issue 37, finding 4): as the clinician typed it or the
 * link gave it (the service got its letters and digits only), cut in the middle when long so its
 * end shows ("ENC-…00871"); `full` for the row's title and its buttons' names.
 */
export function railEncounterId(entry: Pick<HistoryEntry, 'encounterId' | 'shownAs'>): {
  shown: string;
  full: string;
} {
  const full = entry.shownAs ?? entry.encounterId;
  const chars = Array.from(full);
  if (chars.length <= WHOLE_UP_TO) return { shown: full, full };
  const head = chars.slice(0, WHOLE_UP_TO - END_KEPT - 1).join('');
  return { shown: `${head}…${chars.slice(-END_KEPT).join('')}`, full };
}
