import { readdirSync, rmSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * Seals what the sandbox writes to disk, for an embedder that keeps nothing in the clear (the app's
 * built-in demo seals with a key derived from its spool key). `overhead`: bytes a seal adds.
 */
export interface AtRestCipher {
  seal(plain: Buffer): Buffer;
  /** Throws on a file sealed with another key, or altered. */
  open(sealed: Buffer): Buffer;
  readonly overhead: number;
}

/** One JSON document of the sandbox's data directory, replaced atomically on each write. */
export interface JsonFile<T> {
  read(): Promise<T | undefined>;
  write(value: T): Promise<void>;
  /** Resolves when every write queued so far has landed. */
  flush(): Promise<void>;
}

export function jsonFile<T>(path: string, cipher?: AtRestCipher): JsonFile<T> {
  let queue: Promise<void> = Promise.resolve();
  return {
    async read() {
      try {
        const bytes = await readFile(path);
        return JSON.parse((cipher ? openOrForget(cipher, bytes, path) : bytes).toString('utf8')) as T;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    write(value) {
      // Serialized: two quick writes must land in order.
      const next = queue.then(async () => {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        const text = Buffer.from(JSON.stringify(value), 'utf8');
        await writeFileAtomic(path, cipher ? cipher.seal(text) : text, { mode: 0o600 });
      });
      queue = next.catch(() => undefined);
      return next;
    },
    flush: () => queue,
  };
}

/**
 * Before sealing: the files an unsealed run keeps (the token key, providers, each session's record
 * and audio) removed from `dataDir`; returns how many. Those sessions cannot be continued sealed.
 */
export function removeUnsealedFiles(dataDir: string): number {
  const unsealed = [
    ...['token-key.json', 'providers.json'].map((name) => join(dataDir, name)),
    ...listOrEmpty(join(dataDir, 'sessions'))
      .filter((name) => name.endsWith('.json') || name.endsWith('.pcm'))
      .map((name) => join(dataDir, 'sessions', name)),
  ];
  let removed = 0;
  for (const path of unsealed) {
    try {
      rmSync(path);
      removed += 1;
    } catch {
      // Not there: nothing to remove.
    }
  }
  return removed;
}

function listOrEmpty(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * A sealed file this key cannot open was sealed with a key the app no longer has (its keychain
 * entry was reset): unreadable for good, so it is removed and reads as absent.
 */
function openOrForget(cipher: AtRestCipher, bytes: Buffer, path: string): Buffer {
  try {
    return cipher.open(bytes);
  } catch {
    rmSync(path, { force: true });
    throw Object.assign(new Error('sealed with another key'), { code: 'ENOENT' });
  }
}
