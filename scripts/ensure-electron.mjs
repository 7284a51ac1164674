#!/usr/bin/env node
// `npm run dev` needs the Electron runtime: fetch it when it is missing, or say why it cannot run
// and point at browser mode. (`npm start` falls back to browser mode by itself: scripts/start.mjs.)
import { ensureElectronRuntime } from './electron-runtime.mjs';

const runtime = ensureElectronRuntime();
if (!runtime.ok) {
  console.error(
    `not possible here (${runtime.reason}).\n` +
      'Run the app in browser mode instead: npm start (or npm run start:browser).',
  );
  process.exit(1);
}
