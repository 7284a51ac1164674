/**
 * How much CPU a child process has used, from Linux's /proc/<pid>/stat (user + system time).
 * Undefined where there is no /proc (macOS, Windows) or the process is gone: the caller then goes
 * by the wall clock alone.
 */
import { readFileSync } from 'node:fs';

/**
 * /proc counts in USER_HZ ticks, 100 a second on every architecture Electron ships for (x86-64,
 * arm64). Asking `getconf CLK_TCK` instead would spawn a process synchronously in the app's main
 * process, where the built-in demo runs this.
 */
const TICKS_PER_SECOND = 100;

export function childCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: the fields after it start at the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? (ticks * 1_000) / TICKS_PER_SECOND : undefined;
}
