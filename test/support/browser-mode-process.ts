import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { callOnSocket, launchKeyOf, openAsPage } from '../../src/main/browser-host/testing/page-client';

export interface BrowserModeProcess {
  launchUrl: string;
  origin: string;
  stop(): Promise<void>;
}

/**
 * Starts browser mode from an app folder (`node <app>/out/main/browser.js`), in `cwd`, so nothing
 * of the repository is in reach: its imports resolve in the folder's own node_modules.
 */
export async function startBrowserMode(options: {
  appDir: string;
  dataDir: string;
  cwd: string;
}): Promise<BrowserModeProcess> {
  const env = { ...process.env };
  delete env.SCRIBE_DATA_DIR;
  delete env.NODE_PATH;
  const child = spawn(
    process.execPath,
    [join(options.appDir, 'out', 'main', 'browser.js'), '--port', '0', '--data', options.dataDir],
    { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const launchUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`browser mode did not start in 20 s\n${stderr}`)),
      20_000,
    );
    lines.on('line', (line) => {
      if (!line.startsWith('SCRIBE_URL=')) return;
      clearTimeout(timer);
      resolve(line.slice('SCRIBE_URL='.length));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`browser mode exited with ${code} before it was ready\n${stderr}`));
    });
  });
  return {
    launchUrl,
    origin: new URL(launchUrl).origin,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

const credentials = new Map<string, Promise<string>>();

/**
 * One contract call over browser mode's socket, as the window makes it: the launch key opens the
 * first connection, each later one presents the page token the one before was given (the key
 * opens one page only), as the window's sessionStorage keeps it. Resolves with the call's result.
 */
export async function callOverSocket(host: BrowserModeProcess, verb: string): Promise<unknown> {
  const previous = credentials.get(host.launchUrl) ?? Promise.resolve(launchKeyOf(host.launchUrl));
  const opened = previous.then((credential) => openAsPage(host.origin, credential));
  credentials.set(
    host.launchUrl,
    opened.then(({ pageToken }) => pageToken),
  );
  const { socket } = await opened;
  try {
    return await callOnSocket(socket, 1, verb);
  } finally {
    socket.close();
  }
}
