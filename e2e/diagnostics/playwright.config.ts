import { defineConfig } from '@playwright/test';
import type { ScribeTestOptions } from '../support/fixtures';

/** The diagnostics beside the suite (`*.diag.ts`): run on purpose, never by `npm test`. */
export default defineConfig<ScribeTestOptions>({
  testDir: '.',
  testMatch: /\.diag\.ts$/,
  outputDir: '../../test-results/diagnostics',
  workers: 1,
  retries: 0,
  reporter: 'list',
  use: { target: 'browser' },
});
