/**
 * Where the main process keeps the few secrets it must remember across restarts (DESIGN.md: the
 * renderer never sees a partner token; settings never hold one). Three homes, told apart by
 * `persistence` so the UI can say where a secret lives:
 * - 'encrypted': the OS keychain through Electron's safeStorage (the shell's implementation, which
 *   can be built from createFileSecretBox with a SecretCipher wrapping encryptString/decryptString);
 * - 'owner-only-file': browser mode, a JSON file readable by the owner only (mode 0600);
 * - 'memory': nothing is written; the secrets are gone when the app quits (e.g. Linux without a
 *   keyring, where safeStorage would only obfuscate). `notice` then says so in one sentence.
 */

export type SecretPersistence = 'encrypted' | 'owner-only-file' | 'memory';

/** The names the app uses; other modules may keep their own (a spool key, say). */
export const SECRET_NAMES = {
  /** Bearer and Single Auth Token partners: the shared partner_token the IT admin hands out. */
  partnerToken: 'partner-token',
  /** Standard partners: the OpenID Connect refresh token (rotated on every use). */
  oidcRefreshToken: 'oidc-refresh-token',
} as const;

/**
 * Kept in the box beside the secrets, not one of them: whom a standard partner's stored refresh
 * token signs in as (the ID token's sub), so an app that finds the token at start is locked for
 * that clinician (issue 39, item 3). Forgotten with the token.
 */
export const OIDC_SUBJECT_NAME = 'oidc-subject';

export interface SecretBox {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  readonly persistence: SecretPersistence;
  /** For the UI when the persistence is weaker than the user would expect. No secret in it. */
  readonly notice?: string;
}

/**
 * Encrypts single values (Electron: safeStorage.encryptString/decryptString). decrypt throws when
 * the value cannot be decrypted (another user, a reset keychain).
 */
export interface SecretCipher {
  encrypt(plain: string): Uint8Array;
  decrypt(cipher: Uint8Array): string;
}

/** The notice for a box that forgets at quit because the OS offers no real encryption. */
export const MEMORY_ONLY_NOTICE =
  'This computer has no secure keychain available, so sign-in details are kept only until the app quits.';

export function createMemorySecretBox(options: { notice?: string } = {}): SecretBox {
  const values = new Map<string, string>();
  return {
    persistence: 'memory',
    ...(options.notice !== undefined ? { notice: options.notice } : {}),
    async get(name) {
      return values.get(name);
    },
    async set(name, value) {
      values.set(name, value);
    },
    async delete(name) {
      values.delete(name);
    },
  };
}
