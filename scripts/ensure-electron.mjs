#!/usr/bin/env node
// `npm start` and `npm run dev` need the Electron runtime. Machines that cannot reach its download
// host install with ELECTRON_SKIP_BINARY_DOWNLOAD=1 (see README), so the runtime may be missing:
// fetch it now with Electron's own installer. On a normal workstation this is a no-op after the
// first run; where the download host is unreachable it says so and points at browser mode.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function installedRuntime() {
  try {
    const executable = require('electron');
    return existsSync(executable) ? executable : undefined;
  } catch {
    return undefined;
  }
}

if (!installedRuntime()) {
  console.log('The Electron runtime is not installed yet; downloading it (once)…');
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const { status } = spawnSync(process.execPath, [require.resolve('electron/install.js')], {
    stdio: 'inherit',
    env,
  });
  if (status !== 0 || !installedRuntime()) {
    console.error(
      'Could not download the Electron runtime (no access to its download host?).\n' +
        'Run the app in browser mode instead: npm run start:browser',
    );
    process.exit(1);
  }
}
