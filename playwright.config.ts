import { defineConfig } from '@playwright/test';
import type { ScribeTestOptions } from './e2e/support/fixtures';
import { electronRuntime } from './e2e/support/electron-runtime';

const electron = electronRuntime();
// Said once, by the runner (workers load this file too and carry TEST_WORKER_INDEX).
if (!electron.available && process.env.TEST_WORKER_INDEX === undefined) {
  console.log(`Electron target skipped: ${electron.reason}; the same specs ran in browser mode.`);
}

export default defineConfig<ScribeTestOptions>({
  testDir: 'e2e',
  outputDir: 'test-results',
  // Each test starts its own app; one at a time keeps a 2-core machine honest.
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['json', { outputFile: '.test-results/playwright.json' }]],
  use: { trace: 'retain-on-failure' },
  projects: [
    // Processes started from the command line (npm run sandbox): no browser, no Electron.
    { name: 'node', testMatch: /sandbox-cli\.spec\.ts/ },
    { name: 'browser', testIgnore: /sandbox-cli\.spec\.ts/, use: { target: 'browser' } },
    ...(electron.available
      ? [{ name: 'electron', testIgnore: /sandbox-cli\.spec\.ts/, use: { target: 'electron' as const } }]
      : []),
  ],
});
