import { lstat, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Whether only root can have written a file (Linux, macOS): the machine policy sets the service,
 * the partner token and the locked keys, so a file a user could write or replace would let that
 * user (or anything running as them) stand in for IT. The file must be a regular file owned by
 * root and writable by root alone, and so must every folder above it (a folder writable by others
 * lets them rename the file away and put their own in its place), unless the folder is sticky:
 * then others may add files but not remove or rename root's.
 */

/** What the check needs of a file: its owner and its mode, type bits included (as fs.Stats has them). */
export interface FileFacts {
  uid: number;
  mode: number;
}

export interface AdminOnlyFileOptions {
  /** lstat; after realpath nothing on the path is a link. */
  stat?: (path: string) => Promise<FileFacts>;
  realpath?: (path: string) => Promise<string>;
  /** The owner trusted to write policy: root (tests pass their own). */
  trustedUid?: number;
  /** The last folder checked (tests: their temp folder, whose own parents are whatever the machine has). */
  stopAt?: string;
}

export type AdminOnlyVerdict =
  | { kind: 'absent' }
  /** The file to read: the resolved path, so a link swapped after the check is not followed. */
  | { kind: 'trusted'; realPath: string }
  | { kind: 'untrusted'; rule: string }
  | { kind: 'unreadable'; code: string };

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_ISVTX = 0o1000;
const S_IWGRP = 0o020;
const S_IWOTH = 0o002;

const FILE_RULE = 'must be owned by root and writable by root alone';
const FOLDER_RULE = 'must be in folders owned by root and writable by root alone';

export async function checkAdminOnlyFile(
  path: string,
  options: AdminOnlyFileOptions = {},
): Promise<AdminOnlyVerdict> {
  const stat = options.stat ?? lstat;
  const resolve = options.realpath ?? realpath;
  const trustedUid = options.trustedUid ?? 0;
  try {
    const real = await resolve(path);
    // Named in the rule when it differs: IT sees which file the link led to.
    const named = real === path ? '' : `${real} `;
    const file = await stat(real);
    if ((file.mode & S_IFMT) !== S_IFREG)
      return { kind: 'untrusted', rule: `must be a regular file (${named || 'it '}is not one)` };
    const fileFault = faultOf(file, trustedUid);
    if (fileFault) return { kind: 'untrusted', rule: `${FILE_RULE} (${named || 'it '}${fileFault})` };

    const stopAt = options.stopAt === undefined ? undefined : await resolve(options.stopAt);
    for (let folder = dirname(real); ; folder = dirname(folder)) {
      const facts = await stat(folder);
      if ((facts.mode & S_IFMT) !== S_IFDIR)
        return { kind: 'untrusted', rule: `${FOLDER_RULE} (${folder} is not a folder)` };
      const sticky = (facts.mode & S_ISVTX) !== 0;
      const fault = faultOf(facts, trustedUid, sticky);
      if (fault) return { kind: 'untrusted', rule: `${FOLDER_RULE} (${folder} ${fault})` };
      if (folder === stopAt || dirname(folder) === folder) break;
    }
    return { kind: 'trusted', realPath: real };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    // A link to nowhere is as absent as no file: nothing was installed there that could be read.
    if (code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'unreadable', code };
  }
}

/** Why this file or folder could be written by someone other than root, or undefined. */
function faultOf(facts: FileFacts, trustedUid: number, sticky = false): string | undefined {
  if (facts.uid !== trustedUid) return `is owned by uid ${facts.uid}`;
  // A sticky folder (/tmp) lets others add files but not replace root's: its write bits are harmless.
  if (sticky) return undefined;
  const group = (facts.mode & S_IWGRP) !== 0;
  const others = (facts.mode & S_IWOTH) !== 0;
  if (group && others) return 'is writable by its group and by every user';
  if (group) return 'is writable by its group';
  if (others) return 'is writable by every user';
  return undefined;
}
