import { vi } from 'vitest';
import type { Logger } from '../ports';
import type { FileFacts } from './admin-only-file';
import type { PolicyFs } from './machine-policy';
import type { CommandResult } from './system-command';

/**
 * The machine places' file system and command runner, faked: tests see every path read or looked
 * at and every command run, and nothing touches /etc, the registry or a real process.
 */

export interface FakeFile {
  text: string;
  uid?: number;
  /** Permission bits; 0o644 when not given. */
  mode?: number;
}

function absent(path: string): Error {
  return Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
}

/** Files as given (root's, 0644 unless said), and every folder above a POSIX one root's and 0755. */
export function fakePolicyFs(files: Record<string, FakeFile>, folders: Record<string, FileFacts> = {}) {
  const isFolder = (path: string) =>
    path in folders ||
    (path.startsWith('/') &&
      Object.keys(files).some((file) => file.startsWith(path === '/' ? '/' : `${path}/`)));
  const facts = (path: string): FileFacts | undefined => {
    const file = files[path];
    if (file) return { uid: file.uid ?? 0, mode: 0o100000 | (file.mode ?? 0o644) };
    if (isFolder(path)) return folders[path] ?? { uid: 0, mode: 0o040755 };
    return undefined;
  };
  return {
    readFile: vi.fn(async (path: string) => {
      const file = files[path];
      if (!file) throw absent(path);
      return file.text;
    }),
    stat: vi.fn(async (path: string) => {
      const found = facts(path);
      if (!found) throw absent(path);
      return found;
    }),
    realpath: vi.fn(async (path: string) => {
      if (!facts(path)) throw absent(path);
      return path;
    }),
  } satisfies PolicyFs;
}

/** A runner that answers by the command's first argument and the queried key; anything else fails. */
export function fakeRun(answers: Record<string, Partial<CommandResult>>) {
  return vi.fn(async (file: string, args: readonly string[], _options?: { env?: NodeJS.ProcessEnv }) => {
    const name = `${file.split(/[\\/]/).pop()} ${args[0] === 'query' ? args[1] : ''}`.trim();
    const answer = answers[name];
    if (!answer) return { exitCode: 1, stdout: '', stderr: 'ERROR: not found' };
    return { exitCode: 0, stdout: '', stderr: '', ...answer };
  });
}

export function fakeLog() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies Logger;
}
