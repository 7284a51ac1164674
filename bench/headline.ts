/**
 * The few numbers of a benchmark that lead the report's "At a glance" table: each script leaves
 * its rows as `<section>.json` in `$BENCH_HEADLINE_DIR`, which `npm run bench` (bench/run-all.ts)
 * sets and reads; a script run on its own leaves them in the temp directory, harmlessly.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One headline figure: ours, the reference from the same run, their ratio. */
export interface HeadlineRow {
  metric: string;
  /** Our figure, with its unit. */
  ours: string;
  /** The same measure of the reference, in the same run. */
  reference?: string;
  /** ours / reference (a plain number: 2 means twice the reference). */
  ratio?: number;
  goal?: string;
  met?: boolean;
}

/** Writes the rows as a JSON array; returns the file's path. */
export function saveHeadline(section: string, rows: HeadlineRow[]): string {
  const dir = process.env.BENCH_HEADLINE_DIR ?? tmpdir();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${section}.json`);
  writeFileSync(file, `${JSON.stringify(rows, null, 2)}\n`);
  return file;
}

/** A ratio to three significant figures, or undefined when it has no meaning (no or zero reference). */
export function ratio(ours: number, reference: number): number | undefined {
  if (!Number.isFinite(ours) || !Number.isFinite(reference) || reference === 0) return undefined;
  return Number((ours / reference).toPrecision(3));
}
