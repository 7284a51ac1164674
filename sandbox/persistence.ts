import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/** One JSON document of the sandbox's data directory, replaced atomically on each write. */
export interface JsonFile<T> {
  read(): Promise<T | undefined>;
  write(value: T): Promise<void>;
  /** Resolves when every write queued so far has landed. */
  flush(): Promise<void>;
}

export function jsonFile<T>(path: string): JsonFile<T> {
  let queue: Promise<void> = Promise.resolve();
  return {
    async read() {
      try {
        return JSON.parse(await readFile(path, 'utf8')) as T;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    write(value) {
      // Serialized: two quick writes must land in order.
      const next = queue.then(async () => {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        await writeFileAtomic(path, JSON.stringify(value), { mode: 0o600 });
      });
      queue = next.catch(() => undefined);
      return next;
    },
    flush: () => queue,
  };
}
