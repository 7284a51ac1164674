import { access, readFile, rename } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { Logger } from '../ports';

/**
 * A JSON file the app keeps (settings, history) that cannot be read back: cut short by a power
 * cut or a full disk, emptied, or edited by hand into something else. Such a file is moved aside
 * under a name that says so, in the same directory, and kept for the IT admin: never deleted,
 * never overwritten. The caller then starts from defaults.
 *
 * Both shells run this on their settings file before anything opens it: electron-store parses
 * settings.json in its constructor and throws on a damaged one, which would stop the app before
 * it shows a window; browser mode's own file storage reads it with the same rule.
 */

export interface SetAside {
  /** Where the damaged file is now. */
  keptAs: string;
}

/** Why a file is damaged, or undefined when it reads as a JSON object (or is not there at all). */
export function damageOf(text: string): string | undefined {
  // A text editor may save a byte order mark; electron-store skips it, and so does this check.
  const json = text.replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(json) as unknown;
  } catch {
    return json.trim() === '' ? 'empty' : 'not valid JSON';
  }
  // Both formats (electron-store's and browser mode's) are one JSON object; anything else would
  // be read as nothing and then overwritten by the next save, which loses it as surely.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  return undefined;
}

/**
 * Moves `filePath` aside when it is damaged, as `<name>.damaged-<UTC time>[-n]<ext>`, and says where.
 * The log line says where the file went and what was wrong, never what the file held.
 */
export async function setAsideIfDamaged(
  filePath: string,
  log: Logger,
  now: () => number = Date.now,
): Promise<SetAside | undefined> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const problem = damageOf(text);
  if (!problem) return undefined;
  const keptAs = await freeName(filePath, now());
  await rename(filePath, keptAs);
  // Field names the log scrubber writes as text (logging/log-field-names.ts); keptAs names the file.
  log.warn('a damaged file was set aside; starting from defaults', { reason: problem, keptAs });
  return { keptAs };
}

/** A name next to the file that nothing uses yet, so an earlier damaged copy is never replaced. */
async function freeName(filePath: string, at: number): Promise<string> {
  const ext = extname(filePath);
  const stem = join(dirname(filePath), basename(filePath, ext));
  // 2026-11-24T08-01-02Z: sortable, and valid in file names on every platform (no colons).
  const stamp = new Date(at)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  for (let n = 0; ; n += 1) {
    const candidate = `${stem}.damaged-${stamp}${n === 0 ? '' : `-${n}`}${ext}`;
    if (!(await exists(candidate))) return candidate;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
