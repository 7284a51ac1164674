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
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const RESULTS = '.test-results';
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

const tally = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
/** The failed tests by name, printed just above the closing line: CI shows only the output's tail. */
const failedNames = [];
/** The tests that passed only on a retry (the telehealth phase's, playwright.config.ts), by name. */
const flakyNames = [];

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
  for (const file of report.testResults ?? []) {
    const name = relative(process.cwd(), file.name);
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    // Under the name, the error in brief: the output's tail is all CI shows.
    for (const test of failed) {
      const why = test.failureMessages?.[0] ? `\n    ${briefError(test.failureMessages[0])}` : '';
      failedNames.push(`unit: ${name} › ${test.fullName}${why}`);
    }
    if (file.status === 'failed' && failed.length === 0) failedNames.push(`unit: ${name} (did not load)`);
  }
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

/**
 * Playwright's JSON report: each test of `status` ('unexpected': failed on every try; 'flaky':
 * passed only on a retry), as `e2e: [project] file:line › title`.
 */
function specsOf(report, status) {
  const names = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== status) continue;
        const title = [...titles, spec.title].filter(Boolean).join(' › ');
        // Under the name, each failed try's error in brief: the output's tail is all CI shows.
        const tries = (test.results ?? []).map((result, k) =>
          result.error?.message
            ? `\n    try ${k + 1}: ${briefError(result.error.message)}${whereIn(result.error.location)}`
            : '',
        );
        names.push(`e2e: [${test.projectName}] ${spec.file}:${spec.line} › ${title}${tries.join('')}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  // The top suites are the files: their title is the file, already named.
  for (const suite of report?.suites ?? []) walk(suite, []);
  return names;
}

/**
 * An error's message in one line, without colour: its first line and its Locator, Expected and
 * Received lines (a spec with several checks of one kind is told apart by the locator).
 */
function briefError(message) {
  const lines = stripVTControlCharacters(message)
    .split('\n')
    .map((line) => line.trim());
  const told = [lines[0], ...lines.slice(1).filter((line) => /^(Locator|Expected|Received)\b/.test(line))];
  return told.join(' · ').slice(0, 400);
}

/** Where in the spec a try failed (Playwright's error location), as ` (at file:line)`. */
function whereIn(location) {
  return location?.file ? ` (at ${relative(process.cwd(), location.file)}:${location.line})` : '';
}

/**
 * The end-to-end tests in the phases playwright.config.ts names (E2E_PHASES), one run each: the
 * timing specs run after the rest and alone, and a failure in one phase leaves the next ones to run
 * (in one run, Playwright skipped every project after a failed one: 11 tests "did not run").
 */
const E2E_PHASES = ['parallel', 'cadence', 'fidelity', 'alone', 'telehealth'];

if (built) {
  const total = { expected: 0, flaky: 0, unexpected: 0, skipped: 0 };
  let allOk = true;
  const missing = [];
  const started = Date.now();
  for (const phase of E2E_PHASES) {
    process.env.SCRIBE_E2E_PHASE = phase;
    const { ok } = run(`end-to-end (playwright), ${phase}`, 'npx', ['playwright', 'test']);
    const stats = readJson(`${RESULTS}/playwright-${phase}.json`)?.stats;
    if (!stats) {
      missing.push(phase);
      continue;
    }
    for (const key of Object.keys(total)) total[key] += stats[key] ?? 0;
    failedNames.push(...specsOf(readJson(`${RESULTS}/playwright-${phase}.json`), 'unexpected'));
    flakyNames.push(...specsOf(readJson(`${RESULTS}/playwright-${phase}.json`), 'flaky'));
    if (!ok && stats.unexpected === 0) allOk = false;
  }
  delete process.env.SCRIBE_E2E_PHASE;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const passed = total.expected + total.flaky;
  tally.passed += passed;
  tally.failed += total.unexpected + missing.length + (allOk ? 0 : 1);
  tally.skipped += total.skipped;
  lines.push(
    `end-to-end (playwright): ${passed} passed${total.flaky > 0 ? ` (${total.flaky} only on a retry: flaky)` : ''}, ${total.unexpected} failed, ${total.skipped} skipped (${seconds} s)` +
      (missing.length > 0 ? `; FAILED without a report: ${missing.join(', ')}` : ''),
  );
} else {
  tally.failed += 1;
  lines.push('end-to-end (playwright): not run, the build failed');
}

console.log('\n=== Summary');
for (const line of lines) console.log(line);
for (const name of flakyNames) console.log(`FLAKY ${name}`);
for (const name of failedNames) console.log(`FAILED ${name}`);
const skipped = tally.skipped > 0 ? `, ${tally.skipped} skipped` : '';
console.log(`${tally.passed} passed, ${tally.failed} failed${skipped}`);
process.exit(tally.failed === 0 ? 0 : 1);
