#!/usr/bin/env node
// `npm test`: build, electronegativity, lint, type-check, unit tests (Vitest) and end-to-end tests
// (Playwright), all of them even when one fails, then one closing line `N passed, N failed[, N
// skipped]` that adds up every runner. Lint, format, the type-check and the electronegativity scan
// (Electron security findings against security/electronegativity-justified.json, offline) count as
// one check each; the build is a prerequisite of the scan and the end-to-end tests and counts as one
// check too.
//
// The four static checks and the unit tests run at once (each prints its output when it ends: the
// unit tests mostly wait on sockets and timers); the end-to-end tests run alone after them, since
// they play audio in real time and judge its timing (README, "Tests").
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';

const RESULTS = '.test-results';
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

const tally = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function run(title, command, args) {
  console.log(`\n=== ${title}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const { status } = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: status === 0, seconds };
}

/**
 * Runs these at once; prints each one's output, whole, when it ends, and counts it as one check
 * passed or failed, or through its own `count(ok, seconds)` (a test runner with a report).
 */
async function atOnce(runs) {
  await Promise.all(
    runs.map(
      ([title, command, args, count]) =>
        new Promise((resolve) => {
          const started = Date.now();
          const child = spawn(command, args, { env: process.env });
          const output = [];
          child.stdout.on('data', (data) => output.push(data));
          child.stderr.on('data', (data) => output.push(data));
          child.on('close', (status) => {
            const seconds = ((Date.now() - started) / 1000).toFixed(1);
            const ok = status === 0;
            console.log(`\n=== ${title}: ${[command, ...args].join(' ')}`);
            process.stdout.write(Buffer.concat(output));
            (count ?? ((passed, took) => countCheck(title, passed, took)))(ok, seconds);
            resolve();
          });
        }),
    ),
  );
}

/** A check counts as one test, passed or failed. */
function countCheck(title, ok, seconds) {
  tally[ok ? 'passed' : 'failed'] += 1;
  lines.push(`${title}: ${ok ? 'passed' : 'FAILED'} (${seconds} s)`);
}

function check(title, command, args) {
  const { ok, seconds } = run(title, command, args);
  countCheck(title, ok, seconds);
  return ok;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const built = check('build', 'npx', ['electron-vite', 'build']);
if (!built) {
  tally.failed += 1;
  lines.push('electronegativity: not run, the build failed');
}
/** Adds Vitest's own counts from its JSON report. */
function countUnit(ok, seconds) {
  const report = readJson(`${RESULTS}/vitest.json`);
  if (!report) {
    tally.failed += 1;
    lines.push(`unit (vitest): FAILED without a report (${seconds} s)`);
    return;
  }
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  tally.passed += report.numPassedTests;
  tally.failed += report.numFailedTests;
  tally.skipped += skipped;
  // A suite that fails to load has no failed test but is a failure all the same.
  if (!ok && report.numFailedTests === 0) tally.failed += 1;
  lines.push(
    `unit (vitest): ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped (${seconds} s)`,
  );
}

await atOnce([
  ...(built ? [['electronegativity', 'node', ['scripts/electronegativity.mjs']]] : []),
  ['lint', 'npx', ['eslint', '.', '--max-warnings', '0']],
  ['format', 'npx', ['prettier', '--check', '.']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  [
    'unit (vitest)',
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${RESULTS}/vitest.json`],
    countUnit,
  ],
]);

if (built) {
  const { ok, seconds } = run('end-to-end (playwright)', 'npx', ['playwright', 'test']);
  const stats = readJson(`${RESULTS}/playwright.json`)?.stats;
  if (stats) {
    const passed = stats.expected + stats.flaky;
    tally.passed += passed;
    tally.failed += stats.unexpected;
    tally.skipped += stats.skipped;
    if (!ok && stats.unexpected === 0) tally.failed += 1;
    lines.push(
      `end-to-end (playwright): ${passed} passed${stats.flaky > 0 ? ` (${stats.flaky} only on a retry: flaky)` : ''}, ${stats.unexpected} failed, ${stats.skipped} skipped (${seconds} s)`,
    );
  } else {
    tally.failed += 1;
    lines.push(`end-to-end (playwright): FAILED without a report (${seconds} s)`);
  }
} else {
  tally.failed += 1;
  lines.push('end-to-end (playwright): not run, the build failed');
}

console.log('\n=== Summary');
for (const line of lines) console.log(line);
const skipped = tally.skipped > 0 ? `, ${tally.skipped} skipped` : '';
console.log(`${tally.passed} passed, ${tally.failed} failed${skipped}`);
process.exit(tally.failed === 0 ? 0 : 1);
