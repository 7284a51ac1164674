import type { HistoryEntry } from '../../../shared/contract';
import { describeTarget, sameTarget, type DeliveryTarget } from '../../../shared/delivery-target';
import { UserFacingError } from '../user-facing-error';

/**
 * Whose visits the window may see (issues 29 and 39): a shared exam-room laptop keeps every
 * clinician's visits in one History, but each clinician sees only their own: another provider
 * signed in on the same laptop sees none of the first one's unfinished visits or notes to finish,
 * and cannot open, play, finish or discard them.
 *
 * A visit's owner is the service, partner, provider and sign-in model it was recorded under, all
 * four (issue 39, item 4): the built-in demo set to a real clinician's provider ID is another
 * owner, and so is the same provider at another service address (the visit waits for that one,
 * its audio kept, until its owner signs in there or the retention sweep removes it). A visit that
 * names no owner, or one without a sign-in model (recorded before issue 39), is nobody's: who
 * proved what when it was recorded cannot be told, so it fails closed.
 */
export function createClinicianVisits(deps: {
  /** Whom a visit recorded now would belong to (acting-clinician.ts, visitsOwner). */
  owner(): DeliveryTarget;
}) {
  const mine = (entry: HistoryEntry) =>
    entry.deliverTo !== undefined && sameTarget(entry.deliverTo, deps.owner());
  return {
    mine,
    /** Theirs, as the window gets them: the seals stay in main (ciphertext, of no use to a page). */
    visible: (entries: readonly HistoryEntry[]) =>
      entries.filter(mine).map(({ sealed: _kept, ...entry }): HistoryEntry => entry),
    /** Refuses a visit of another owner, in one sentence that says who can open it. */
    requireMine(entry: HistoryEntry): void {
      if (mine(entry)) return;
      throw new UserFacingError(
        'invalid_request',
        entry.deliverTo?.model === undefined
          ? 'This visit’s records do not say who recorded it, so nobody can open it here: ask your IT admin, as it stays sealed on this computer until the retention sweep removes it.'
          : `Sign in as ${describeTarget(entry.deliverTo)} to open this visit.`,
      );
    },
  };
}
