/**
 * docs/benchmarks.md and the figures that go in it: each script rewrites only its own section
 * (between `<!-- bench:NAME -->` markers) and leaves its headline rows as `<section>.json` in
 * `$BENCH_HEADLINE_DIR`, which `npm run bench` (bench/run-all.ts) sets and reads for "At a glance";
 * a script run on its own leaves them in the temp directory, harmlessly.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';

const REPORT = 'docs/benchmarks.md';
const START_LOAD = loadavg()[0]!;

/** One headline figure: ours (with its unit), the reference from the same run, ours / reference. */
export interface HeadlineRow {
  metric: string;
  ours: string;
  reference?: string;
  ratio?: number;
  goal?: string;
  met?: boolean;
  /**
   * Issue 40's three ratios ("ratio, window in front", "ratio, window hidden", "core ÷ bare
   * client"): a row with one is also printed first in "At a glance", as `<ratioLine>: X×`.
   */
  ratioLine?: string;
}

export function saveHeadline(section: string, rows: HeadlineRow[]): void {
  const dir = process.env.BENCH_HEADLINE_DIR ?? tmpdir();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${section}.json`), `${JSON.stringify(rows, null, 2)}\n`);
}

/** A ratio to three significant figures, or undefined when it has no meaning (no or zero reference). */
export function ratio(ours: number, reference: number): number | undefined {
  if (!Number.isFinite(ours) || !Number.isFinite(reference) || reference === 0) return undefined;
  return Number((ours / reference).toPrecision(3));
}

/** The machine a benchmark ran on, printed above its table (ratios matter more than absolutes). */
export function machineLine(): string {
  let chromium = 'not installed';
  try {
    chromium = execFileSync(process.env.CHROMIUM_PATH ?? 'chromium', ['--version'], {
      encoding: 'utf8',
      // Debian's wrapper script prints shell noise on stderr.
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    // no browser on this machine: the line says so
  }
  return `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.versions.node}, ${chromium}, ${new Date().toISOString().slice(0, 10)}`;
}

/** The 1-minute load average when the script started and now: other work on the machine shows here. */
export function loadNote(): string {
  return `load average ${START_LOAD.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end`;
}

/** Replaces one section of docs/benchmarks.md, formatted as the repository's Prettier does, and prints it. */
export async function writeSection(name: string, markdown: string): Promise<void> {
  const options = { ...(await resolveConfig(REPORT)), parser: 'markdown' };
  const formatted = (await format(markdown, options)).trim();
  console.log(formatted);
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  // Blank lines around the markdown keep the file as Prettier formats it.
  const block = `${start}\n\n${formatted}\n\n${end}`;
  const current = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '# Benchmarks\n';
  const pattern = new RegExp(`${escape(start)}[\\s\\S]*?${escape(end)}`);
  writeFileSync(
    REPORT,
    pattern.test(current) ? current.replace(pattern, block) : `${current.trimEnd()}\n\n${block}\n`,
  );
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
export const max = (values: number[]): number => Math.max(...values);

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `v` with `digits` decimals and thousands separators. */
export function num(v: number, digits = 0): string {
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
