#!/usr/bin/env node
// `npm run start:browser`: builds the app if the build is missing or older than the sources, then
// runs browser mode (the main-process core in Node, the renderer in a browser tab). Arguments after
// `--` go to the host: --port N, --data DIR.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ENTRY = 'out/main/browser.js';
const INPUTS = ['src', 'resources', 'electron.vite.config.ts', 'package.json'];

function newestMtime(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

const stale =
  !existsSync(ENTRY) || Math.max(...INPUTS.filter(existsSync).map(newestMtime)) > statSync(ENTRY).mtimeMs;
if (stale) {
  console.log('Building the app first (sources changed since the last build)…');
  const { status } = spawnSync('npx', ['electron-vite', 'build'], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

const host = spawn(process.execPath, [ENTRY, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => host.kill(signal));
host.on('exit', (code) => process.exit(code ?? 0));
