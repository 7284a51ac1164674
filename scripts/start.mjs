#!/usr/bin/env node
// `npm start`: the desktop app where Electron's runtime is installed or can be fetched; otherwise
// one line that says why not, and the same app in browser mode (opened in the system browser where
// there is one, its address printed either way). No environment variable needed on any machine.
import { spawn } from 'node:child_process';
import { ensureElectronRuntime } from './electron-runtime.mjs';

const runtime = ensureElectronRuntime();
const [command, args] = runtime.ok
  ? ['npx', ['electron-vite', 'preview']]
  : [process.execPath, ['scripts/run-built.mjs', 'browser', '--open', ...process.argv.slice(2)]];
if (!runtime.ok)
  console.log(`not possible here (${runtime.reason}): starting the app in browser mode instead.`);

const child = spawn(command, args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
