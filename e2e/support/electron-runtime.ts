import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export type ElectronRuntime = { available: true; executable: string } | { available: false; reason: string };

/**
 * Whether the Electron runtime was downloaded (it is not where ELECTRON_SKIP_BINARY_DOWNLOAD was
 * set, e.g. on machines that cannot reach its download host).
 */
export function electronRuntime(): ElectronRuntime {
  try {
    const executable = createRequire(import.meta.url)('electron') as unknown as string;
    if (existsSync(executable)) return { available: true, executable };
    return { available: false, reason: `no Electron runtime at ${executable}` };
  } catch {
    return {
      available: false,
      reason: 'the Electron runtime is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD)',
    };
  }
}
