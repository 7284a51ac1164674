import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AtRestCipher } from '../../../../sandbox/persistence';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * How the built-in demo service seals its files (sessions, audio, providers, token key): AES-256-GCM
 * under a key derived from the spool key, so a visit's files at the demo are as unreadable as its
 * spool, and a key of their own (HKDF) keeps the two uses apart.
 */
export function demoAtRestCipher(spoolKey: Uint8Array): AtRestCipher {
  const key = Buffer.from(
    hkdfSync('sha256', spoolKey, Buffer.alloc(0), 'ambient-scribe built-in demo at rest', 32),
  );
  return {
    overhead: IV_BYTES + TAG_BYTES,
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
      decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    },
  };
}

/**
 * While the demo is not running: the files of its sessions that `keep` does not name, deleted from
 * `sessionsDir` directly (they are `<session id>.json…` and `<session id>.pcm…`). Returns the ids.
 */
export function removeDemoSessionFiles(sessionsDir: string, keep: (sessionId: string) => boolean): string[] {
  let names: string[];
  try {
    names = readdirSync(sessionsDir);
  } catch {
    return [];
  }
  const removed = new Set<string>();
  for (const name of names) {
    const sessionId = name.split('.', 1)[0]!;
    if (keep(sessionId)) continue;
    try {
      rmSync(join(sessionsDir, name), { force: true });
      removed.add(sessionId);
    } catch {
      // Next sweep.
    }
  }
  return [...removed];
}
