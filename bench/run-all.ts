/**
 * `npm run bench`: every benchmark script, one after another on a quiet machine, then the report's
 * first section, "At a glance": the machine, the date, each script's wall time, and the headline
 * rows the scripts saved (ours next to the reference measured in the same run, ratio first).
 * A script that fails is reported as failed and its section keeps nothing from an earlier run:
 * every number in docs/benchmarks.md comes from this run, or is marked as not measured.
 *
 *   npm run bench                 # everything (about 12 minutes on 2 cores)
 *   npm run bench -- --only a,b   # some sections, by name (their headlines only)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCHMARKS, type Benchmark } from './benchmarks';
import { machineLine, writeSection, type HeadlineRow } from './report';

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only?.split(',').map((name) => name.trim());
const chosen = only ? BENCHMARKS.filter((b) => only.includes(b.section)) : BENCHMARKS;
if (only && chosen.length !== only.length) {
  console.error(`--only names sections; known: ${BENCHMARKS.map((b) => b.section).join(', ')}`);
  process.exit(2);
}

type Outcome = { benchmark: Benchmark; seconds: number; ok: boolean };

/** Runs one script as its own process, so each starts cold and one crash stops nothing else. */
function run(benchmark: Benchmark, headlineDir: string): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...benchmark.node, benchmark.script, ...(benchmark.args ?? [])], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_HEADLINE_DIR: headlineDir },
    });
    child.on('exit', (code) =>
      resolve({ benchmark, seconds: (Date.now() - started) / 1_000, ok: code === 0 }),
    );
  });
}

const cell = (text: string | undefined) => (text ?? '—').replace(/\|/g, '\\|');

function ratioText(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return '—';
  return `${ratio >= 10 ? ratio.toFixed(0) : ratio >= 1 ? ratio.toFixed(2) : ratio.toPrecision(2)}×`;
}

/** Issue 40's ratios, met or not, each on a line of its own ahead of the table. */
function ratioLines(outcomes: Outcome[], headlines: Map<string, HeadlineRow[]>): string[] {
  const rows = outcomes.flatMap(({ benchmark, ok }) =>
    ok ? (headlines.get(benchmark.section) ?? []).filter((row) => row.ratioLine) : [],
  );
  if (rows.length === 0) return [];
  const said = (row: HeadlineRow) =>
    `- ${row.ratioLine}: ${ratioText(row.ratio)} (goal ${row.goal ?? '—'}${row.met === undefined ? '' : row.met ? ', met' : ', **not met**'})`;
  const lines = rows.map(said);
  for (const line of lines) console.log(line.slice(2));
  return [...lines, ''];
}

/** The report's first section: where and when, how long each script took, and the headlines. */
function glance(outcomes: Outcome[], headlines: Map<string, HeadlineRow[]>, totalS: number): string {
  const lines = [
    '## At a glance',
    '',
    `${machineLine()}. \`npm run bench\` took ${Math.round(totalS)} s${only ? ' (only some scripts ran: the other sections are from earlier runs)' : ''}.`,
    '',
    'Ratios are ours / the reference measured in the same run (below 1× is better for times and',
    'costs, above 1× for quality and capacity; each row says which). Sections below give the method.',
    '',
    ...ratioLines(outcomes, headlines),
    '| section | metric | ours | reference | ratio | goal | met |',
    '| ------- | ------ | ---: | --------: | ----: | ---- | --- |',
  ];
  for (const { benchmark, ok } of outcomes) {
    const rows = headlines.get(benchmark.section) ?? [];
    if (!ok || rows.length === 0) {
      const said = ok ? 'see the section' : 'not measured: the script failed';
      lines.push(`| ${benchmark.section} | ${said} | | | | | |`);
    }
    for (const row of ok ? rows : []) {
      const met = row.met === undefined ? '—' : row.met ? 'yes' : '**no**';
      lines.push(
        `| ${benchmark.section} | ${cell(row.metric)} | ${cell(row.ours)} | ${cell(row.reference)} | ${ratioText(row.ratio)} | ${cell(row.goal)} | ${met} |`,
      );
    }
  }
  lines.push('', '| script | wall time (s) | outcome |', '| ------ | ------------: | ------- |');
  for (const { benchmark, seconds, ok } of outcomes) {
    lines.push(`| ${benchmark.section} | ${Math.round(seconds)} | ${ok ? 'measured' : 'failed'} |`);
  }
  return lines.join('\n');
}

const headlineDir = mkdtempSync(join(tmpdir(), 'scribe-bench-'));
const started = Date.now();
const outcomes: Outcome[] = [];
for (const benchmark of chosen) {
  console.log(`\n=== ${benchmark.section}: ${benchmark.title} ===`);
  const outcome = await run(benchmark, headlineDir);
  outcomes.push(outcome);
  if (!outcome.ok) {
    // Nothing from an earlier run may pass for this one's numbers.
    await writeSection(
      benchmark.section,
      `## ${benchmark.title}\n\nNot measured: the script failed in the run of ${new Date().toISOString().slice(0, 10)} (see its output).`,
    );
  }
}
const headlines = new Map<string, HeadlineRow[]>();
for (const file of readdirSync(headlineDir).filter((name) => name.endsWith('.json'))) {
  headlines.set(file.slice(0, -'.json'.length), JSON.parse(readFileSync(join(headlineDir, file), 'utf8')));
}
rmSync(headlineDir, { recursive: true, force: true });

const totalS = (Date.now() - started) / 1_000;
await writeSection('glance', glance(outcomes, headlines, totalS));
console.log(
  `\nnpm run bench: ${outcomes.filter((o) => o.ok).length} of ${outcomes.length} scripts measured in ${Math.round(totalS)} s.`,
);
process.exit(outcomes.every((o) => o.ok) ? 0 : 1);
