import { mkdir, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { silentLogger, type Logger } from '../ports';
import type { SecretBox, SecretCipher } from './secret-box';

/**
 * A secret box kept in one JSON file: `{"format": "plain" | "cipher", "secrets": {name: value}}`.
 * Without a cipher (browser mode) values are stored as they are, in a file only the owner can read
 * ('owner-only-file'); with one (the Electron shell passing safeStorage) each value is stored as
 * base64 ciphertext ('encrypted'). The file is replaced atomically (temp file, fsync, rename), so a
 * crash mid-write leaves the old or the new file, never a torn one.
 */

export interface FileSecretBoxOptions {
  filePath: string;
  cipher?: SecretCipher;
  log?: Logger;
}

interface SecretFile {
  format: 'plain' | 'cipher';
  secrets: Record<string, string>;
}

const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;

export function createFileSecretBox(options: FileSecretBoxOptions): SecretBox {
  const { filePath, cipher } = options;
  const log = options.log ?? silentLogger;
  const format: SecretFile['format'] = cipher ? 'cipher' : 'plain';
  let loaded: Promise<Record<string, string>> | undefined;
  // Writes run one after another so two quick set() calls cannot lose each other's update.
  let queue: Promise<unknown> = Promise.resolve();

  const load = async (): Promise<Record<string, string>> => {
    let text: string;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Partial<SecretFile>;
      if (parsed.format !== format || typeof parsed.secrets !== 'object' || parsed.secrets === null) {
        // Written by the other kind of box (e.g. safeStorage became unavailable): unreadable here,
        // and the user signs in again rather than the app guessing. The file is kept aside, not
        // overwritten: it may hold the key to visits' audio, readable again once the keychain is.
        const keptAs = `${filePath}.other-format-${Date.now()}`;
        await rename(filePath, keptAs);
        log.warn('secret file is in another format; kept it aside and started without stored secrets', {
          keptAs,
        });
        return {};
      }
      return Object.fromEntries(
        Object.entries(parsed.secrets).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      );
    } catch {
      // Keep the unreadable file aside for the admin instead of silently overwriting it.
      const keptAs = `${filePath}.unreadable-${Date.now()}`;
      await rename(filePath, keptAs);
      log.warn('secret file was not valid JSON; kept it aside', { keptAs });
      return {};
    }
  };

  const entries = (): Promise<Record<string, string>> => (loaded ??= load());

  const save = async (secrets: Record<string, string>): Promise<void> => {
    await mkdir(dirname(filePath), { recursive: true, mode: DIRECTORY_MODE });
    const file: SecretFile = { format, secrets };
    // write-file-atomic chmods its temp file to this mode before the rename: never readable by others.
    await writeFileAtomic(filePath, `${JSON.stringify(file)}\n`, { mode: FILE_MODE, fsync: true });
  };

  const update = (change: (secrets: Record<string, string>) => boolean): Promise<void> => {
    const next = queue.then(async () => {
      // Changed on a copy: memory follows the file only once the file has it.
      const secrets = { ...(await entries()) };
      if (!change(secrets)) return;
      await save(secrets);
      loaded = Promise.resolve(secrets);
    });
    queue = next.catch(() => undefined);
    return next;
  };

  const decrypts = (stored: string): boolean => {
    try {
      cipher?.decrypt(Buffer.from(stored, 'base64'));
      return true;
    } catch {
      return false;
    }
  };

  return {
    persistence: cipher ? 'encrypted' : 'owner-only-file',
    async get(name) {
      const stored = (await entries())[name];
      if (stored === undefined || !cipher) return stored;
      try {
        return cipher.decrypt(Buffer.from(stored, 'base64'));
      } catch {
        log.warn('a stored secret could not be decrypted; it is ignored', { entry: name });
        return undefined;
      }
    },
    set(name, value) {
      const stored = cipher ? Buffer.from(cipher.encrypt(value)).toString('base64') : value;
      return update((secrets) => {
        const previous = secrets[name];
        if (previous === stored) return false;
        // A value the keychain cannot decrypt now is kept, not replaced: the keychain may come back.
        if (previous !== undefined && cipher && !decrypts(previous)) {
          secrets[`${name}.unreadable-${Date.now()}`] = previous;
          log.warn('a stored secret that could not be decrypted was kept aside', { entry: name });
        }
        secrets[name] = stored;
        return true;
      });
    },
    delete(name) {
      return update((secrets) => {
        if (!(name in secrets)) return false;
        delete secrets[name];
        return true;
      });
    },
  };
}
