import {
  recordGenerationFile,
  recordGenerationInMemory,
  type RecordGeneration,
} from '../sealed/record-generation';

/**
 * How many times the PIN store was written, kept outside it (issue 39, item 2). The PINs and their
 * wrong tries live in the secret box, on the desktop a file of keychain-encrypted values: nobody
 * can write a value there without the keychain, but anyone can put back an older copy of the
 * file, and with it the tries it had then (ten wrong PINs, restore, ten more). So each write of the
 * store carries a number that only goes up, and the same number is written here, sealed in the
 * data directory (sealed/record-generation.ts): a store whose number is lower than the last one
 * written, or this file gone while the store has a number, is an older copy, and every PIN in it
 * counts as blocked until IT enters the partner token again (unlock-pins.ts).
 *
 * Browser mode's secrets file is plain owner-only JSON holding the spool key too: its owner can
 * edit anything in it, this included (browser mode is for development and tests).
 */
export type PinGeneration = RecordGeneration;

export const pinGenerationFile = (file: string, spoolKey: () => Promise<Uint8Array>): PinGeneration =>
  recordGenerationFile(file, spoolKey, { purpose: 'pin generation', name: 'pin store' });

/** In memory: for tests. */
export const pinGenerationInMemory = recordGenerationInMemory;
