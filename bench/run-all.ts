/**
 * `npm run bench`: every benchmark script, one after another on a quiet machine, then the report's
 * first section, "At a glance": the machine, the date, each script's wall time, and the headline
 * rows the scripts saved (ours next to the reference measured in the same run, ratio first).
 * A script that fails is reported as failed and its section keeps nothing from an earlier run:
 * every number in docs/benchmarks.md comes from this run, or is marked as not measured.
 *
 *   npm run bench                 # everything (under 15 minutes on 2 cores)
 *   npm run bench -- --only a,b   # some sections, by name (their headlines only)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BENCHMARKS, type Benchmark } from './benchmarks';
import { headlineMarkdown, type HeadlineRow } from './glance';
import { formatReport, machineLine, readSectionNames, writeSection } from './report';

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only?.split(',').map((name) => name.trim());
const chosen = only ? BENCHMARKS.filter((b) => only.includes(b.section)) : BENCHMARKS;
if (only && chosen.length !== only.length) {
  const known = BENCHMARKS.map((b) => b.section).join(', ');
  console.error(`--only names sections; known: ${known}`);
  process.exit(2);
}

interface Outcome {
  benchmark: Benchmark;
  seconds: number;
  ok: boolean;
}

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

function readHeadlines(dir: string): Map<string, HeadlineRow[]> {
  const rows = new Map<string, HeadlineRow[]>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    rows.set(
      file.slice(0, -'.json'.length),
      JSON.parse(readFileSync(join(dir, file), 'utf8')) as HeadlineRow[],
    );
  }
  return rows;
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
    writeSection(
      benchmark.section,
      `## ${benchmark.title}\n\nNot measured: the script failed in the run of ${new Date().toISOString().slice(0, 10)} (see its output).`,
    );
  }
}
const headlines = readHeadlines(headlineDir);
rmSync(headlineDir, { recursive: true, force: true });

const totalS = (Date.now() - started) / 1_000;
writeSection(
  'glance',
  headlineMarkdown({ machine: machineLine(), totalS, outcomes, headlines, partial: Boolean(only) }),
);
await formatReport();
const stale = readSectionNames().filter(
  (name) => name !== 'glance' && !BENCHMARKS.some((b) => b.section === name),
);
if (stale.length > 0) console.warn(`Sections no script writes any more (remove them): ${stale.join(', ')}`);
console.log(
  `\nnpm run bench: ${outcomes.filter((o) => o.ok).length} of ${outcomes.length} scripts measured in ${Math.round(totalS)} s.`,
);
process.exit(outcomes.every((o) => o.ok) ? 0 : 1);
