import { readFile, rename } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import type { JsonStorage, Logger } from './ports';

/**
 * Browser mode's settings file: one JSON document, replaced atomically (write to a temp file,
 * fsync, rename) so a crash mid-write leaves either the old or the new file, never half of one.
 * Readable by the owner only.
 */
export function createJsonFileStorage(filePath: string, log: Logger): JsonStorage {
  return {
    location: filePath,
    async read() {
      let text: string;
      try {
        text = await readFile(filePath, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      try {
        return JSON.parse(text) as unknown;
      } catch {
        // Keep the unreadable file for the admin instead of overwriting it with defaults.
        const keptAs = `${filePath}.unreadable-${Date.now()}`;
        await rename(filePath, keptAs);
        log.warn('settings file was not valid JSON; kept it aside and started from defaults', {
          keptAs,
        });
        return undefined;
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
