// The choice npm start and npm run dev make: the desktop app where Electron's runtime is installed
// or can be fetched; otherwise one line that says why not, and the same app in browser mode.
import { spawn } from 'node:child_process';
import { ensureElectronRuntime } from './electron-runtime.mjs';

/**
 * Runs `electron` ([command, args]) or, without the runtime, `browser`, saying `instead` after
 * the reason; passes Ctrl+C on and exits with the child's code.
 */
export function runElectronOrBrowser({ electron, browser, instead }) {
  const runtime = ensureElectronRuntime();
  const [command, args] = runtime.ok ? electron : browser;
  if (!runtime.ok) console.log(`not possible here (${runtime.reason}): ${instead}`);

  const child = spawn(command, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
