#!/usr/bin/env node
// `npm test`'s electronegativity step (Electron security checklist, audited by Doyensec's tool),
// offline. Fails on any finding of medium severity or above that security/electronegativity-
// justified.json does not accept with a reason, on a stale entry there, and on a file the tool
// cannot parse.
//
// What it reads, and why:
// - the TypeScript sources of main, the preload, the shared code and the built-in sandbox (which
//   runs in main), tests and test helpers left out. The tool parses TypeScript with Babel first, so
//   current syntax (`satisfies`, private fields) reads fine, and a finding names a source line a
//   justification can name too. (On TypeScript it does not follow variables: options passed in a
//   variable read as unset, a finding too many, never one too few.) Their bundles in out/main are not read: the same code, and the
//   tool's scope analysis cannot read the ES2022 private fields in the sandbox's chunk.
// - the built renderer (out/renderer: index.html with the CSP the build writes into it, where the
//   source has a placeholder, and every script as shipped, React, onnxruntime-web, vad-web and the
//   AudioWorklet included). Run `npm run build` first.
// - package.json: the Electron version, since the tool judges options against that version's
//   defaults.
//
// Usage: node scripts/electronegativity.mjs [--root DIR] [--justified FILE]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { electronVersionOf, NETWORK_CHECK, scan, TOOL_VERSION } from './security/electronegativity-scan.mjs';
import { judge, loadJustifications, THRESHOLD } from './security/justifications.mjs';

const { values } = parseArgs({
  options: { root: { type: 'string', default: '.' }, justified: { type: 'string' } },
});
const root = resolve(values.root);
const listPath = resolve(root, values.justified ?? 'security/electronegativity-justified.json');

const SOURCE_DIRS = ['src/main', 'src/preload', 'src/shared', 'sandbox'];
const TEST_CODE = /(\.test\.tsx?$)|(\/(testing|test-support)\/)/;
const RENDERER_BUILD = 'out/renderer';

function filesUnder(dir, keep) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => keep(relative(root, file)))
    .sort();
}

function fail(message) {
  console.error(`electronegativity: ${message}`);
  process.exit(1);
}

if (!existsSync(join(root, RENDERER_BUILD, 'index.html')))
  fail(`no ${RENDERER_BUILD}/index.html under ${root}: run \`npm run build\` first.`);
let justifications;
try {
  justifications = loadJustifications(listPath);
} catch (error) {
  fail(error.message);
}

const files = [
  ...SOURCE_DIRS.flatMap((dir) =>
    filesUnder(
      join(root, dir),
      (file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && !TEST_CODE.test(file),
    ),
  ),
  ...filesUnder(join(root, RENDERER_BUILD), (file) => /\.(html|js)$/.test(file)),
  join(root, 'package.json'),
];
const electronVersion = electronVersionOf(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
if (!electronVersion) fail('package.json names no Electron version.');

const started = Date.now();
const { checks, findings, unparsed } = await scan({ root, files, electronVersion });
const { judged, stale } = judge(findings, justifications);

console.log(
  `electronegativity ${TOOL_VERSION}: ${checks} checks (${NETWORK_CHECK} left out: it needs the network) ` +
    `over ${files.length} files, Electron ${electronVersion}, ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
const rows = judged.map((f) => [f.severity, f.check, `${f.file}:${f.line}`, f.status]);
const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i].length), 8));
for (const row of rows)
  console.log(`  ${row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell)).join('  ')}`);

const unjustified = judged.filter((f) => f.status === 'UNJUSTIFIED');
for (const f of unjustified)
  console.log(`\nUNJUSTIFIED ${f.check} at ${f.file}:${f.line}: ${f.description}\n  ${f.sample}`);
for (const entry of stale)
  console.log(
    `\nSTALE justification: ${entry.check} in ${entry.file} matches no finding; remove it from ${relative(root, listPath)}.`,
  );
for (const { file, message } of unparsed)
  console.log(`\nNOT SCANNED ${file}: the tool could not parse it (${message}).`);

const problems = unjustified.length + stale.length + unparsed.length;
console.log(
  `\n${judged.length} findings: ${judged.filter((f) => f.status === 'justified').length} justified, ` +
    `${judged.filter((f) => f.status === 'below threshold').length} below ${THRESHOLD}, ${unjustified.length} unjustified; ` +
    `${stale.length} stale justifications; ${unparsed.length} files not parsed`,
);
if (problems > 0)
  console.log(
    `Fix the code, or justify a finding in ${relative(root, listPath)} with why it is safe in this app.`,
  );
process.exit(problems === 0 ? 0 : 1);
