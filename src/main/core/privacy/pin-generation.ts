import { readFile } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import { createRecordSeal } from '../sealed/record-seal';

/**
 * How many times the PIN store was written, kept outside it (issue 39, item 2). The PINs and their
 * wrong tries live in the secret box, on the desktop a file of keychain-encrypted values: nobody
 * can write a value there without the keychain, but anyone can put back an older copy of the
 * file, and with it the tries it had then (ten wrong PINs, restore, ten more). So each write of the
 * store carries a number that only goes up, and the same number is written here, sealed
 * (record-seal.ts) in the data directory: a store whose number is lower than the last one written,
 * or this file gone while the store has a number, is an older copy, and every PIN in it counts as
 * blocked until IT enters the partner token again (unlock-pins.ts).
 *
 * Not detected: this file and the store put back together, from the same moment (nothing a user
 * can copy can be told from the original without a counter outside the disk, a TPM's). Browser
 * mode's secrets file is plain owner-only JSON holding the spool key too: its owner can edit
 * anything in it, this included (browser mode is for development and tests).
 */
export interface PinGeneration {
  /** The number last written; undefined when none was ever written here. Throws when unreadable. */
  read(): Promise<number | undefined>;
  write(generation: number): Promise<void>;
}

const NAME = 'pin store';

export function pinGenerationFile(file: string, spoolKey: () => Promise<Uint8Array>): PinGeneration {
  const seal = async () => createRecordSeal(await spoolKey(), 'pin generation');
  return {
    async read() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      const plain = (await seal()).open(NAME, text.trim());
      const generation = plain === undefined ? NaN : Number(plain);
      if (!Number.isSafeInteger(generation) || generation < 1)
        throw new Error('the PIN store’s generation is not one this app sealed');
      return generation;
    },
    async write(generation) {
      await writeFileAtomic(file, (await seal()).seal(NAME, String(generation)), {
        mode: 0o600,
        fsync: true,
      });
    },
  };
}

/** In memory: for tests. */
export function pinGenerationInMemory(): PinGeneration & { value?: number } {
  const held: { value?: number } = {};
  return {
    read: async () => held.value,
    write: async (generation) => void (held.value = generation),
    get value() {
      return held.value;
    },
  };
}
