import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type ElectronRuntime = { available: true; executable: string } | { available: false; reason: string };

/**
 * Whether the Electron runtime is on this machine: the install never fetches it, `npm start` (or
 * `npm run dev`) does the first time, where its download host can be reached.
 */
export function electronRuntime(): ElectronRuntime {
  // Not require('electron'): since Electron 42 it starts a download when the runtime is missing.
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { available: false, reason: 'the electron package is not installed' };
  }
  const record = join(dir, 'path.txt');
  if (!existsSync(record)) {
    return {
      available: false,
      reason: 'the Electron runtime is not installed (npm start fetches it where it can)',
    };
  }
  const executable = join(dir, 'dist', readFileSync(record, 'utf8').trim());
  if (existsSync(executable)) return { available: true, executable };
  return {
    available: false,
    reason: `no Electron runtime at ${executable} (npm start fetches it where it can)`,
  };
}
