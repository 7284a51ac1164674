// Whether Electron's runtime is on this machine, fetching it with Electron's own installer when it
// is missing. The install step never fetches it (Electron has no install script since 42), so
// `npm ci` works where its download host is unreachable; `npm start` and `npm run dev` ask here first.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The runtime's executable when it is installed, else undefined. Read from the package's own
 * record (path.txt and dist/) rather than require('electron'): since Electron 42 that require
 * starts a download when the runtime is missing.
 */
export function installedRuntime() {
  try {
    const dir = dirname(require.resolve('electron/package.json'));
    const relative = readFileSync(join(dir, 'path.txt'), 'utf8').trim();
    const executable = join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(dir, 'dist'), relative);
    return existsSync(executable) ? executable : undefined;
  } catch {
    return undefined;
  }
}

/**
 * { ok: true } when the runtime is installed or could be fetched now (once, about 100 MB);
 * otherwise { ok: false, reason } with the installer's own words for why not.
 */
export function ensureElectronRuntime({ quiet = false } = {}) {
  if (installedRuntime()) return { ok: true };
  // One line whatever happens: the fetch, then " done." or the caller's words on why not.
  if (!quiet) process.stdout.write('The Electron runtime is not installed yet; fetching it (once)… ');
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const result = spawnSync(process.execPath, [require.resolve('electron/install.js')], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 10 * 60_000,
  });
  if (result.status === 0 && installedRuntime()) {
    if (!quiet) console.log('done.');
    return { ok: true };
  }
  return { ok: false, reason: whyNot(`${result.stderr ?? ''}\n${result.stdout ?? ''}`) };
}

function whyNot(output) {
  if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|getaddrinfo/.test(output))
    return 'its download host cannot be reached from here';
  const line = output
    .split('\n')
    .map((l) => l.trim())
    .find((l) => /error/i.test(l));
  return line ? `its installer said: ${line.slice(0, 160)}` : 'its installer failed';
}
