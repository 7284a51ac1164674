import { chmod, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const PRODUCT_NAME = 'Ambient Scribe';

/**
 * The per-user app data directory, the same one Electron's app.getPath('userData') gives, so
 * browser mode and the desktop app keep their files side by side. SCRIBE_DATA_DIR overrides it
 * in browser mode (tests, a developer's second data directory); the desktop app's own rule is
 * desktopDataDirectoryOverride below.
 */
export function defaultDataDirectory(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.SCRIBE_DATA_DIR) return env.SCRIBE_DATA_DIR;
  const home = homedir();
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), PRODUCT_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', PRODUCT_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), PRODUCT_NAME);
}

/**
 * SCRIBE_DATA_DIR for the desktop app: honoured by an unpackaged build only (development, the
 * end-to-end tests). An installed app keeps its data in the user's own directory whatever its
 * environment says, since the variable would move the secret box, the settings and unsent visit
 * audio (and the log) to wherever whoever set it chose: a share, a folder other users read.
 */
export function desktopDataDirectoryOverride(env: NodeJS.ProcessEnv, packaged: boolean): string | undefined {
  return packaged ? undefined : env.SCRIBE_DATA_DIR || undefined;
}

/**
 * Makes the data directory this user's alone (0700) at every launch: created so, and narrowed when
 * it exists already (made by an older version, a copy or by hand), since it holds visits' audio,
 * History and the secrets.
 */
export async function ensurePrivateDataDirectory(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  // Windows has no POSIX modes: the folder under the user's profile is already theirs.
  if (process.platform !== 'win32') await chmod(directory, 0o700);
}
