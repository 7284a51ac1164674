import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export type ElectronRuntime = { available: true; executable: string } | { available: false; reason: string };

/**
 * Whether the Electron runtime is on this machine: the install never fetches it, `npm start` (or
 * `npm run dev`) does the first time, where its download host can be reached.
 */
export function electronRuntime(): ElectronRuntime {
  try {
    const executable = createRequire(import.meta.url)('electron') as unknown as string;
    if (existsSync(executable)) return { available: true, executable };
    return {
      available: false,
      reason: `no Electron runtime at ${executable} (npm start fetches it where it can)`,
    };
  } catch {
    return {
      available: false,
      reason: 'the Electron runtime is not installed (npm start fetches it where it can)',
    };
  }
}
