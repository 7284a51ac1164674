import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HeadlineRow } from './glance';

export type { HeadlineRow } from './glance';

/**
 * Saves a benchmark's headline rows for `npm run bench`'s "At a glance" table (bench/run-all.ts
 * sets BENCH_HEADLINE_DIR; a script run on its own writes them to the temp directory, harmlessly).
 */
export function saveHeadline(section: string, rows: HeadlineRow[]): void {
  writeFileSync(join(process.env.BENCH_HEADLINE_DIR ?? tmpdir(), `${section}.json`), JSON.stringify(rows));
}
