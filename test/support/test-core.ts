import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppInfo } from '../../src/shared/contract';
import { createAppCore, type AppCore, type AppCoreDeps } from '../../src/main/core/app-core';
import { createJsonFileStorage } from '../../src/main/core/json-file-storage';
import { silentLogger, systemClock } from '../../src/main/core/ports';
import { createMemorySecretBox, type SecretBox } from '../../src/main/core/secrets/secret-box';

/**
 * A main-process core for tests: settings in a fresh temporary directory, secrets in memory, no
 * log output, the wall clock unless `overrides` says otherwise (browser mode, as far as it knows).
 */
export async function createTestCore(overrides: Partial<AppCoreDeps> = {}): Promise<AppCore> {
  const dir = await mkdtemp(join(tmpdir(), 'scribe-test-core-'));
  return createAppCore({
    settingsStorage: createJsonFileStorage(join(dir, 'settings.json'), silentLogger),
    secrets: createMemorySecretBox(),
    appInfo: testAppInfo(dir),
    log: silentLogger,
    clock: systemClock,
    ...overrides,
  });
}

/**
 * A core on `dir` and `secrets`: the same laptop across restarts (its settings, History and the
 * lock's record in `dir`, its keychain in `secrets`).
 */
export function createTestCoreOn(
  dir: string,
  secrets: SecretBox,
  overrides: Partial<AppCoreDeps> = {},
): Promise<AppCore> {
  return createTestCore({
    settingsStorage: createJsonFileStorage(join(dir, 'settings.json'), silentLogger),
    secrets,
    appInfo: testAppInfo(dir),
    ...overrides,
  });
}

/** What a test core says about itself; its data (settings, history, the demo service) lives in `dir`. */
export function testAppInfo(dataDirectory: string): AppInfo {
  return {
    name: 'Ambient Scribe',
    version: '1.0.0',
    mode: 'browser',
    platform: 'linux',
    runtime: { node: '20' },
    dataDirectory,
  };
}
