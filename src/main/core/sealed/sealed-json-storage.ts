import type { JsonStorage, Logger } from '../ports';
import type { RecordGeneration } from './record-generation';
import { createRecordSeal } from './record-seal';

/**
 * A JSON document sealed by this app and counted (issue 39: "fail closed on every store"): what is
 * stored is `{ sealed }`, the value and a number that only goes up, sealed (record-seal.ts) under
 * `purpose`; the same number is kept in a file of its own (record-generation.ts). A document this
 * app did not seal (written or edited by hand, or a version before), one older than the last one
 * written, or one whose number cannot be checked, reads as nothing stored: the reader's "missing",
 * which fails closed (privacy.json: the password is owed). So is one when the key cannot be loaded.
 */
export function sealedJsonStorage(
  plain: JsonStorage,
  deps: {
    purpose: string;
    spoolKey: () => Promise<Uint8Array>;
    generation: RecordGeneration;
    log: Logger;
  },
): JsonStorage {
  const { purpose, generation, log } = deps;
  const NAME = 'document';
  const seal = async () => createRecordSeal(await deps.spoolKey(), purpose);
  /** The number of the document read or written last in this run. */
  let last = 0;

  const refused = (why: string) => {
    log.warn(`${purpose}: ${why}; read as missing`);
    return undefined;
  };

  return {
    location: plain.location,
    async read() {
      const stored = await plain.read();
      if (stored === undefined) return undefined;
      try {
        const sealed = (stored as { sealed?: unknown }).sealed;
        const opened = (await seal()).open(NAME, typeof sealed === 'string' ? sealed : undefined);
        if (opened === undefined) return refused('not sealed by this app');
        const { number, value } = JSON.parse(opened) as { number: number; value: unknown };
        const written = await generation.read().catch(() => Infinity);
        // Gone while a sealed document names a number: put back with an older copy, or deleted.
        if (written === undefined) return refused('its count is missing');
        if (!(number >= written)) return refused('an older copy than the last one written');
        last = number;
        return value;
      } catch (error) {
        return refused(`could not be opened (${(error as Error).name})`);
      }
    },
    async write(value) {
      const written = await generation.read().catch(() => undefined);
      const number = Math.max(last, written ?? 0) + 1;
      // The document first: a crash between the two leaves it newer than its count, which reads.
      await plain.write({ sealed: (await seal()).seal(NAME, JSON.stringify({ number, value })) });
      await generation.write(number);
      last = number;
    },
  };
}
