import { readFile } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import { createRecordSeal } from './record-seal';

/**
 * How many times a record was written, kept sealed in a file of its own beside it (issue 39): a
 * record's copy put back carries a lower number than the last one written, and so is told from the
 * record the app wrote last. Used for the PIN store (privacy/pin-generation.ts) and privacy.json
 * (sealed-json-storage.ts).
 *
 * Not detected: the record and this file put back together, from the same moment (nothing a user
 * can copy can be told from the original without a counter outside the disk, a TPM's).
 */
export interface RecordGeneration {
  /** The number last written; undefined when none was ever written here. Throws when unreadable. */
  read(): Promise<number | undefined>;
  write(generation: number): Promise<void>;
}

/** `purpose` and `name` bind the sealed number to its record (record-seal.ts). */
export function recordGenerationFile(
  file: string,
  spoolKey: () => Promise<Uint8Array>,
  { purpose, name }: { purpose: string; name: string },
): RecordGeneration {
  const seal = async () => createRecordSeal(await spoolKey(), purpose);
  return {
    async read() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      const plain = (await seal()).open(name, text.trim());
      const generation = plain === undefined ? NaN : Number(plain);
      if (!Number.isSafeInteger(generation) || generation < 1)
        throw new Error(`the ${name}’s generation is not one this app sealed`);
      return generation;
    },
    async write(generation) {
      await writeFileAtomic(file, (await seal()).seal(name, String(generation)), {
        mode: 0o600,
        fsync: true,
      });
    },
  };
}

/** In memory: for tests. */
export function recordGenerationInMemory(): RecordGeneration & { value?: number } {
  const held: { value?: number } = {};
  return {
    read: async () => held.value,
    write: async (generation) => void (held.value = generation),
    get value() {
      return held.value;
    },
  };
}
