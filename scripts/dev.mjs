#!/usr/bin/env node
// `npm run dev`: the desktop app with hot reload (electron-vite dev) where Electron's runtime is
// installed or can be fetched; otherwise one line that says why not, and browser mode with hot
// reload (scripts/dev-browser.ts), opened in the system browser where there is one.
import { runElectronOrBrowser } from './electron-or-browser.mjs';

runElectronOrBrowser({
  electron: ['npx', ['electron-vite', 'dev']],
  browser: [
    process.execPath,
    ['--import', 'tsx', 'scripts/dev-browser.ts', '--open', ...process.argv.slice(2)],
  ],
  instead: 'starting browser mode with hot reload instead.',
});
