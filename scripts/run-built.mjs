#!/usr/bin/env node
// Runs one of the built Node entry points, building first if the build is missing or older than
// the sources: `node scripts/run-built.mjs browser` is `npm run start:browser` (browser mode),
// `node scripts/run-built.mjs sandbox` is `npm run sandbox`. Later arguments go to the entry.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ENTRIES = { browser: 'out/main/browser.js', sandbox: 'out/main/sandbox.js' };
const INPUTS = ['src', 'sandbox', 'resources', 'electron.vite.config.ts', 'package.json'];

const [name, ...args] = process.argv.slice(2);
const entry = ENTRIES[name];
if (!entry) {
  console.error(`usage: run-built.mjs ${Object.keys(ENTRIES).join('|')} [args…]`);
  process.exit(2);
}

function newestMtime(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((child) => newestMtime(join(path, child))));
}

const stale =
  !existsSync(entry) || Math.max(...INPUTS.filter(existsSync).map(newestMtime)) > statSync(entry).mtimeMs;
if (stale) {
  console.error('Building the app first (sources changed since the last build)…');
  const { status } = spawnSync('npx', ['electron-vite', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (status !== 0) process.exit(status ?? 1);
}

const child = spawn(process.execPath, [entry, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
