import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../secrets/secret-box';

/** The secret box entry of the spool's AES-256 key (safeStorage in Electron). */
export const SPOOL_KEY_NAME = 'spool-key';
/** Where a stored key that is not a key is kept, with the time it was found (epoch ms). */
export const UNREADABLE_SPOOL_KEY_PREFIX = 'spool-key-unreadable-';

/**
 * This installation's spool key, made on first use. It lives in the secret box, so the spool on
 * disk is unreadable without the OS keychain (Electron) or the owner-only secrets file (browser
 * mode). Where the box keeps secrets in memory only, spooled audio survives a lost network but not
 * a restart of the app.
 *
 * A stored key is never overwritten: replacing it would leave every earlier visit's audio
 * undecryptable. A box that cannot be read (it throws) is left alone for the caller to try again;
 * a stored value that is not a key is kept under another name before a fresh key takes its place.
 */
export async function loadSpoolKey(secrets: SecretBox, now: () => number = Date.now): Promise<Buffer> {
  const stored = await secrets.get(SPOOL_KEY_NAME);
  if (stored !== undefined) {
    const key = Buffer.from(stored, 'base64');
    if (key.length === 32) return key;
    await secrets.set(await unusedName(secrets, now()), stored);
  }
  const fresh = randomBytes(32);
  await secrets.set(SPOOL_KEY_NAME, fresh.toString('base64'));
  return fresh;
}

/** A name for the unreadable value that holds nothing yet (two finds in one millisecond differ). */
async function unusedName(secrets: SecretBox, at: number): Promise<string> {
  for (let n = 0; ; n++) {
    const name = `${UNREADABLE_SPOOL_KEY_PREFIX}${at}${n === 0 ? '' : `-${n}`}`;
    if ((await secrets.get(name)) === undefined) return name;
  }
}
