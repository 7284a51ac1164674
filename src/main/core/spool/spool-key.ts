import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../secrets/secret-box';

/** The secret box entry of the spool's AES-256 key (safeStorage in Electron). */
export const SPOOL_KEY_NAME = 'spool-key';

/**
 * This installation's spool key, made on first use. It lives in the secret box, so the spool on
 * disk is unreadable without the OS keychain (Electron) or the owner-only secrets file (browser
 * mode). Where the box keeps secrets in memory only, spooled audio survives a lost network but not
 * a restart of the app.
 */
export async function loadSpoolKey(secrets: SecretBox): Promise<Buffer> {
  const stored = await secrets.get(SPOOL_KEY_NAME);
  const key = stored ? Buffer.from(stored, 'base64') : undefined;
  if (key?.length === 32) return key;
  const fresh = randomBytes(32);
  await secrets.set(SPOOL_KEY_NAME, fresh.toString('base64'));
  return fresh;
}
