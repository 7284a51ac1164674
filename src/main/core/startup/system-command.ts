import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { win32 } from 'node:path';

/**
 * Running the operating system's own tools that read machine policy (reg.exe, powershell.exe,
 * plutil): without a shell, so no path or value is ever parsed as a command, and by absolute path.
 */

export interface CommandResult {
  /** The exit code, or null when the tool did not run to its end (see `failure`). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why it did not run or finish: ENOENT, a timeout. */
  failure?: string;
}

/** Tests pass their own, so no unit test ever starts a process. */
export type RunCommand = (
  file: string,
  args: readonly string[],
  options?: { env?: NodeJS.ProcessEnv },
) => Promise<CommandResult>;

export const runCommand: RunCommand = (file, args, options = {}) =>
  new Promise((resolve) => {
    execFile(
      file,
      args,
      { env: options.env, timeout: 15_000, windowsHide: true, maxBuffer: 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve({ exitCode: 0, stdout, stderr });
        const code = (error as NodeJS.ErrnoException).code as unknown;
        if (typeof code === 'number') return resolve({ exitCode: code, stdout, stderr });
        resolve({
          exitCode: null,
          stdout,
          stderr,
          failure: error.killed ? 'timed out' : typeof code === 'string' ? code : error.message,
        });
      },
    );
  });

/**
 * A tool in Windows' System32. A bare `reg.exe` would be looked for in the current folder first
 * (Node searches it before PATH), where anyone could have put their own; and SystemRoot is an
 * environment variable a user can set for one launch. So C:\Windows, where Windows nearly always
 * is, comes first; SystemRoot only when Windows is elsewhere, and only as a plain drive path.
 */
export function windowsSystemTool(
  env: NodeJS.ProcessEnv,
  relative: string,
  exists: (path: string) => boolean = existsSync,
): string {
  const usual = win32.join('C:\\Windows', 'System32', relative);
  if (exists(usual)) return usual;
  const root = env.SystemRoot ?? env.windir ?? '';
  if (/^[A-Za-z]:\\[^\\/]/.test(root) && !root.includes('..')) return win32.join(root, 'System32', relative);
  return usual;
}
