import { safeStorage } from 'electron';
import { join } from 'node:path';
import type { Logger } from './core/ports';
import { createFileSecretBox } from './core/secrets/file-secret-box';
import { createMemorySecretBox, MEMORY_ONLY_NOTICE, type SecretBox } from './core/secrets/secret-box';

/**
 * The desktop app's secrets: encrypted with Electron's safeStorage (the OS keychain) in a file in
 * userData. Where Linux offers only the plain-text backend, safeStorage would merely obfuscate, so
 * secrets stay in memory and the UI says why. Call after the app is ready.
 */
export function createElectronSecretBox(userData: string, log: Logger): SecretBox {
  const plainTextOnly =
    !safeStorage.isEncryptionAvailable() ||
    (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text');
  if (plainTextOnly) return createMemorySecretBox({ notice: MEMORY_ONLY_NOTICE });
  return createFileSecretBox({
    filePath: join(userData, 'secrets.json'),
    // A file kept aside (another format, a value the keychain cannot decrypt) is worth a line.
    log,
    cipher: {
      encrypt: (plain) => safeStorage.encryptString(plain),
      decrypt: (cipher) => safeStorage.decryptString(Buffer.from(cipher)),
    },
  });
}
