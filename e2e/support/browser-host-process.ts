import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export interface HostProcess {
  /** The launch address it printed (carries the key). */
  launchUrl: string;
  origin: string;
  /** The Node process (benchmarks read its CPU time). */
  pid: number;
  stop(): Promise<void>;
  /** Kills it with SIGKILL: no handler runs, as when the app crashes or is killed. */
  kill(): Promise<void>;
}

/** Starts `node out/main/browser.js` as its own process, as `npm run start:browser` does. */
export async function startHostProcess(dataDir: string): Promise<HostProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['out/main/browser.js', '--port', '0', '--data', dataDir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const launchUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('browser mode did not print SCRIBE_URL within 15 s')),
      15_000,
    );
    lines.on('line', (line) => {
      if (line.startsWith('SCRIBE_URL=')) {
        clearTimeout(timer);
        resolve(line.slice('SCRIBE_URL='.length));
      }
    });
    child.once('exit', (code) => reject(new Error(`browser mode exited with ${code} before it was ready`)));
  });
  return {
    launchUrl,
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
  };
}
