import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A small record sealed by this app (issue 39): AES-256-GCM under a key derived from the spool key
 * for one purpose, bound to the record's name, so a sealed value cannot be read, changed, made
 * anew or moved to another record without the key (the OS keychain's in the desktop app). What
 * files a user can edit keep this way: each visit's owner and consent (visit-seal.ts), the PIN
 * store's generation (privacy/pin-generation.ts).
 */
export interface RecordSeal {
  /** Base64 of a format byte, the IV, the tag and the ciphertext: small, and fine in JSON. */
  seal(name: string, plain: string): string;
  /** The plain text this app sealed under this name; undefined for anything else. */
  open(name: string, sealed: string | undefined): string | undefined;
}

const FORMAT = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function createRecordSeal(spoolKey: Uint8Array, purpose: string): RecordSeal {
  const key = Buffer.from(hkdfSync('sha256', spoolKey, Buffer.alloc(0), `ambient-scribe ${purpose}`, 32));
  const aadOf = (name: string) => Buffer.from(`${purpose}:${name}`);
  return {
    seal(name, plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aadOf(name));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([FORMAT]), iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(name, sealed) {
      if (sealed === undefined) return undefined;
      try {
        const bytes = Buffer.from(sealed, 'base64');
        if (bytes[0] !== FORMAT || bytes.length < 1 + IV_BYTES + TAG_BYTES) return undefined;
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 1 + IV_BYTES));
        decipher.setAAD(aadOf(name));
        decipher.setAuthTag(bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
        return Buffer.concat([
          decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        return undefined; // not sealed by this app, under this name, with this key
      }
    },
  };
}
