/**
 * `npm run dev` where Electron's runtime is missing (scripts/dev.mjs): browser mode with the
 * renderer from Vite's dev server, so an edit to src/renderer shows at once (React Fast Refresh).
 * Vite runs in middleware mode behind the browser-mode host, so the page keeps the host's origin,
 * launch key and CSP header (the dev CSP: electron.vite.config.ts, DEV_RENDERER_CSP); its HMR
 * socket listens on a port of its own on 127.0.0.1. Run from source through tsx: nothing of this
 * file or of Vite is in the app's build.
 *
 *   node --import tsx scripts/dev-browser.ts [--port N] [--data DIR] [--open]
 */
import { readFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { parseArgs } from 'node:util';
import { createServer, type UserConfig } from 'vite';
import electronViteConfig, { DEV_RENDERER_CSP } from '../electron.vite.config';
import { AlreadyRunningError, startBrowserMode, stopOnSignals } from '../src/main/browser-host/browser-mode';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    data: { type: 'string' },
    open: { type: 'boolean', default: false },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a whole number from 0 to 65535 (0 picks a free port); got "${values.port}".`);
  process.exit(2);
}

/** A free loopback port for Vite's HMR socket (it needs a number before it starts). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port: free } = server.address() as { port: number };
      server.close(() => resolve(free));
    });
  });
}

const { renderer } = electronViteConfig as { renderer: UserConfig };
const hmrPort = await freePort();
const vite = await createServer({
  ...renderer,
  configFile: false,
  appType: 'spa',
  server: { middlewareMode: true, hmr: { host: '127.0.0.1', port: hmrPort } },
});

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const mode = await startBrowserMode({
  port,
  ...(values.data ? { dataDirectory: values.data } : {}),
  renderer: {
    dev: { csp: DEV_RENDERER_CSP, handle: (request, response) => vite.middlewares(request, response) },
  },
  version,
  open: values.open,
}).catch(async (error: unknown) => {
  await vite.close();
  if (!(error instanceof AlreadyRunningError)) throw error;
  console.error(error.message);
  process.exit(1);
});
console.log('Hot reload is on: edits under src/renderer show in the page at once.');
stopOnSignals({ stop: async () => void (await Promise.all([mode.stop(), vite.close()])) });
