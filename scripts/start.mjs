#!/usr/bin/env node
// `npm start`: the desktop app where Electron's runtime is installed or can be fetched; otherwise
// one line that says why not, and the same app in browser mode (opened in the system browser where
// there is one, its address printed either way). No environment variable needed on any machine.
import { runElectronOrBrowser } from './electron-or-browser.mjs';

runElectronOrBrowser({
  electron: ['npx', ['electron-vite', 'preview']],
  browser: [process.execPath, ['scripts/run-built.mjs', 'browser', '--open', ...process.argv.slice(2)]],
  instead: 'starting the app in browser mode instead.',
});
