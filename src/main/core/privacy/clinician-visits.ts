import type { HistoryEntry } from '../../../shared/contract';
import { UserFacingError } from '../user-facing-error';

/**
 * Whose visits the window may see (issue 29): a shared exam-room laptop keeps every clinician's
 * visits in one History, but each clinician sees only their own: another provider signed in on
 * the same laptop sees none of the first one's unfinished visits or notes to finish, and cannot
 * open, finish or discard them. A visit recorded before visits named their provider is everyone's.
 * The service address is not part of it: a visit of this provider waiting for another address is
 * theirs, and History says where it belongs (issue 28).
 */
export function createClinicianVisits(deps: {
  /** The provider the app acts as now ('' when none is known yet). */
  providerId(): string;
}) {
  const mine = (entry: HistoryEntry) =>
    entry.deliverTo === undefined || entry.deliverTo.providerId === deps.providerId();
  return {
    mine,
    visible: (entries: readonly HistoryEntry[]) => entries.filter(mine),
    /** Refuses a visit of another clinician, by name of nothing but the rule. */
    requireMine(entry: HistoryEntry): void {
      if (!mine(entry))
        throw new UserFacingError(
          'invalid_request',
          'This visit was recorded by another clinician on this computer: only they can open it.',
        );
    },
  };
}
