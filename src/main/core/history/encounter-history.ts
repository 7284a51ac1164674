import { z } from 'zod';
import { historyEntrySchema, type HistoryEntry } from '../../../shared/contract';
import type { JsonStorage, Logger } from '../ports';
import type { VisitSeal } from '../sealed/visit-seal';

/** How many visits the list keeps (oldest dropped first): months of clinic days. */
export const HISTORY_LIMIT = 500;

const storedSchema = z.object({ version: z.literal(1), entries: z.array(historyEntrySchema) });

/**
 * The visits of this device, newest first, kept in one small JSON file in the app's data
 * directory. It holds ids, states and times, never note text or transcript (those stay with the
 * service and are fetched again on reopen).
 *
 * A visit's owner (`deliverTo`) and consent are what its seal says (visit-seal.ts), on every read
 * of the file and every update: a value in the file without a seal that opens, or beside one, is
 * dropped, so the visit is nobody's and shows no consent (issue 39, item 6).
 */
export async function createEncounterHistory(options: {
  storage: JsonStorage;
  log: Logger;
  onChange(entries: HistoryEntry[]): void;
  /** Opens each visit's seal; one that cannot (no key this run) leaves every visit nobody's. */
  visitSeal(): Pick<VisitSeal, 'open'>;
}) {
  /** The entry with its owner and consent from its seal, and nothing else of either. */
  const vouched = (entry: HistoryEntry): HistoryEntry => {
    const { deliverTo: _owner, consent: _consent, ...rest } = entry;
    const facts = options.visitSeal().open(entry.sessionId, entry.sealed);
    if (!facts) return rest;
    return { ...rest, deliverTo: facts.deliverTo, ...(facts.consent ? { consent: facts.consent } : {}) };
  };
  let entries: HistoryEntry[] = [];
  const stored = storedSchema.safeParse(await options.storage.read().catch(() => undefined));
  if (stored.success) entries = stored.data.entries.map(vouched);
  // A count only (which visits is nobody's business in a log): those the file says have an owner
  // or a consent that no seal vouches for.
  const unvouched = stored.success
    ? stored.data.entries.filter(
        (entry, i) => (entry.deliverTo ?? entry.consent) !== undefined && entries[i]?.deliverTo === undefined,
      ).length
    : 0;
  if (unvouched > 0)
    options.log.warn('history: visits whose seal does not open are nobody’s (edited, or another key)', {
      visits: unvouched,
    });
  // A visit that was recording when the app stopped did not finish: its audio waits in the spool
  // for the clinician to finish it (send the rest, make the note) or discard it.
  entries = entries.map((e) => (e.state === 'recording' ? { ...e, state: 'interrupted' } : e));

  // Writes are queued so a fast sequence of updates lands in order.
  let writing = Promise.resolve();
  function save(): void {
    const snapshot = { version: 1, entries };
    writing = writing
      .then(() => options.storage.write(snapshot))
      .catch((error: unknown) =>
        options.log.warn('history: could not be saved', { error: (error as Error).message }),
      );
    options.onChange(entries);
  }

  return {
    list: (): HistoryEntry[] => entries,
    find: (sessionId: string): HistoryEntry | undefined => entries.find((e) => e.sessionId === sessionId),
    /** Adds a visit, or updates the one with this session id. */
    record(entry: Pick<HistoryEntry, 'sessionId'> & Partial<HistoryEntry>): void {
      const index = entries.findIndex((e) => e.sessionId === entry.sessionId);
      // Parsed every time: only the schema's fields (ids, states, times) ever reach the file.
      const parsed = historyEntrySchema.safeParse(index >= 0 ? { ...entries[index], ...entry } : entry);
      if (!parsed.success) return options.log.warn('history: incomplete entry ignored', {});
      const next = vouched(parsed.data);
      entries =
        index >= 0
          ? entries.map((e, i) => (i === index ? next : e))
          : [next, ...entries].slice(0, HISTORY_LIMIT);
      save();
    },
    /** Undo of "finished" (issue 29): the visit is to finish again. */
    unfinish(sessionId: string): void {
      const entry = entries.find((e) => e.sessionId === sessionId);
      if (entry?.finishedAt === undefined) return;
      const { finishedAt: _undone, ...rest } = entry;
      entries = entries.map((e) => (e === entry ? rest : e));
      save();
    },
    /** Resolves once everything recorded so far is on disk. */
    flush: () => writing,
  };
}
export type EncounterHistory = Awaited<ReturnType<typeof createEncounterHistory>>;
