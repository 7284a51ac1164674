import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus } from 'node:os';

const REPORT = 'docs/benchmarks.md';

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

/**
 * Replaces one benchmark's section of docs/benchmarks.md (between its markers), so each script
 * rewrites only its own numbers and `npm run bench` can run them in any order.
 */
export function writeSection(name: string, markdown: string): void {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  // Blank lines around the markdown keep the file as Prettier formats it.
  const block = `${start}\n\n${markdown.trim()}\n\n${end}`;
  const current = existsSync(REPORT) ? readFileSync(REPORT, 'utf8') : '# Benchmarks\n';
  const pattern = new RegExp(`${escape(start)}[\\s\\S]*?${escape(end)}`);
  const next = pattern.test(current) ? current.replace(pattern, block) : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(REPORT, next);
}

/** Formats the whole report as the repository's Prettier does (\`npm test\` checks it). */
export async function formatReport(): Promise<void> {
  const { format, resolveConfig } = await import('prettier');
  const options = { ...(await resolveConfig(REPORT)), parser: 'markdown' };
  writeFileSync(REPORT, await format(readFileSync(REPORT, 'utf8'), options));
}

/** The section names docs/benchmarks.md holds now, in order. */
export function readSectionNames(): string[] {
  if (!existsSync(REPORT)) return [];
  return [...readFileSync(REPORT, 'utf8').matchAll(/<!-- bench:([\w-]+) -->/g)].map((m) => m[1] as string);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
