import { readFile } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import type { JsonStorage, Logger } from './ports';
import { setAsideIfDamaged } from './startup/damaged-json-file';

/**
 * Browser mode's settings file (and both modes' history): one JSON document, replaced atomically
 * (write to a temp file, fsync, rename) so a crash mid-write leaves either the old or the new file,
 * never half of one. Readable by the owner only.
 */
export function createJsonFileStorage(filePath: string, log: Logger): JsonStorage {
  return {
    location: filePath,
    async read() {
      // Keep a damaged file for the admin instead of overwriting it with defaults.
      if (await setAsideIfDamaged(filePath, log)) return undefined;
      try {
        return JSON.parse((await readFile(filePath, 'utf8')).replace(/^\uFEFF/, '')) as unknown;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async write(value) {
      await writeFileAtomic(filePath, `${JSON.stringify(value, null, 2)}\n`, {
        mode: 0o600,
        fsync: true,
      });
    },
  };
}
