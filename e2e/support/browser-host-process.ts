import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';

export interface HostProcess {
  /** The launch address it printed (carries the key). */
  launchUrl: string;
  /** With `--open`: the private file it hands the system browser instead of the address. */
  launchFile?: string;
  origin: string;
  /** The Node process (benchmarks read its CPU time). */
  pid: number;
  stop(): Promise<void>;
  /** Kills it with SIGKILL: no handler runs, as when the app crashes or is killed. */
  kill(): Promise<void>;
  /**
   * Moves the process's wall clock (Date.now) on by `ms`, started with `movableClock`: a wait the
   * app measures in minutes (a PIN's) passes at once. Timers are not moved.
   */
  moveClock(ms: number): Promise<void>;
}

/** Loaded into the host process with `movableClock`: Date.now plus what the test moved it on by. */
const MOVABLE_CLOCK = 'e2e/support/movable-clock.mjs';

/** Starts `node out/main/browser.js` as its own process, as `npm run start:browser` does. */
export async function startHostProcess(
  dataDir: string,
  extraArgs: string[] = [],
  options: { movableClock?: boolean } = {},
): Promise<HostProcess> {
  const clockFile = `${dataDir}.clock-moved-ms`;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(options.movableClock ? ['--import', `./${MOVABLE_CLOCK}`] : []),
      'out/main/browser.js',
      '--port',
      '0',
      '--data',
      dataDir,
      ...extraArgs,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: options.movableClock ? { ...process.env, SCRIBE_TEST_CLOCK_FILE: clockFile } : process.env,
    },
  );
  let moved = 0;
  const lines = createInterface({ input: child.stdout! });
  const printed = new Map<string, string>();
  const expected = extraArgs.includes('--open') ? ['SCRIBE_URL', 'SCRIBE_LAUNCH_FILE'] : ['SCRIBE_URL'];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`browser mode did not print ${expected.join(' and ')} within 15 s`)),
      15_000,
    );
    lines.on('line', (line) => {
      const [name, value] = [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)];
      if (!expected.includes(name)) return;
      printed.set(name, value);
      if (expected.every((wanted) => printed.has(wanted))) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`browser mode exited with ${code} before it was ready`)));
  });
  const launchUrl = printed.get('SCRIBE_URL')!;
  const launchFile = printed.get('SCRIBE_LAUNCH_FILE');
  return {
    launchUrl,
    ...(launchFile ? { launchFile } : {}),
    origin: new URL(launchUrl).origin,
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
    async moveClock(ms) {
      if (!options.movableClock) throw new Error('start the host with movableClock to move its clock');
      moved += ms;
      await writeFile(clockFile, String(moved));
      const told = new Promise<void>((resolve) => {
        const heard = (line: string) => {
          if (line !== `CLOCK_MOVED_MS=${moved}`) return;
          lines.off('line', heard);
          resolve();
        };
        lines.on('line', heard);
      });
      child.kill('SIGUSR2');
      await told;
    },
  };
}

/** A second launch of browser mode on this data directory: its exit code and what it printed. */
export async function launchAgain(
  dataDir: string,
  extraArgs: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['out/main/browser.js', '--port', '0', '--data', dataDir, ...extraArgs],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

/**
 * A second launch with `--open-url` on a data directory where browser mode runs (as the EHR's
 * link launches the app): it hands the link over and exits.
 */
export const openUrlInRunningApp = (dataDir: string, url: string) =>
  launchAgain(dataDir, ['--open-url', url]);
