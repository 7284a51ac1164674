import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';

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

const cookies = new Map<string, Promise<string>>();

/**
 * Opens the launch address as a browser does and returns the session cookie it trades the key
 * for; the key trades once, so later calls for the same address get the cookie kept from the first.
 */
export function launchCookie(launchUrl: string): Promise<string> {
  let cookie = cookies.get(launchUrl);
  if (!cookie) {
    cookie = fetch(launchUrl, { redirect: 'manual' }).then(
      (response) => (response.headers.get('set-cookie') ?? '').split(';')[0] as string,
    );
    cookies.set(launchUrl, cookie);
  }
  return cookie;
}

/** One contract call over browser mode's socket, as the window makes it; resolves with its result. */
export async function callOverSocket(host: BrowserModeProcess, verb: string): Promise<unknown> {
  const socket = new WebSocket(`${host.origin.replace('http', 'ws')}/contract`, {
    headers: { cookie: await launchCookie(host.launchUrl), origin: host.origin },
  });
  try {
    await new Promise((opened, failed) => socket.once('open', opened).once('error', failed));
    return await new Promise((done) => {
      socket.on('message', (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
        if (message.id === 1) done(message.result);
      });
      socket.send(JSON.stringify({ id: 1, verb }));
    });
  } finally {
    socket.close();
  }
}
