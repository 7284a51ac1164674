/** The child processes: the sandboxes, the proxy and the reference roles, and what they print. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { countInto, sleep } from './tools';

/** The roles run the entry file again (`--role ...`), not this module. */
const ENTRY = fileURLToPath(new URL('./main.ts', import.meta.url));

const children: ChildProcess[] = [];

export function lines(child: ChildProcess, onLine: (line: string) => void): void {
  createInterface({ input: child.stdout! }).on('line', onLine);
}

export function firstLine(child: ChildProcess, prefix: string): Promise<string> {
  return new Promise((resolve, reject) => {
    lines(child, (line) => {
      if (line.startsWith(prefix)) resolve(line.slice(prefix.length));
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before printing ${prefix}`)));
  });
}

export async function startSandbox(timeScale: number): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'sandbox/main.ts',
      '--port',
      '0',
      '--asr',
      'energy',
      '--time-scale',
      String(timeScale),
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  children.push(child);
  return firstLine(child, 'SANDBOX_URL=');
}

export function startRole(role: string, args: string[], exposeGc = false): ChildProcess {
  const child = spawn(
    process.execPath,
    [...(exposeGc ? ['--expose-gc'] : []), '--import', 'tsx', ENTRY, '--role', role, ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  return child;
}

export async function roleResult<T>(child: ChildProcess): Promise<T> {
  return JSON.parse(await firstLine(child, 'RESULT ')) as T;
}

export async function stopChildren(): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5_000)]);
    }),
  );
}

export interface SandboxSummary {
  received_bytes: number;
  pcm_sha256: string;
  connections: number;
  timeline: { type: string }[];
}

export async function sandboxSession(baseUrl: string, id: string): Promise<SandboxSummary> {
  return (await (await fetch(`${baseUrl}/__sandbox/sessions/${id}`)).json()) as SandboxSummary;
}

export function timelineCounts(summary: SandboxSummary, types: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { type } of summary.timeline) if (types.includes(type)) countInto(counts, type);
  return counts;
}
