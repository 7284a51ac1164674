/** A benchmark's section of docs/benchmarks.md, formatted as Prettier wants it, then written and printed. */
import { format, resolveConfig } from 'prettier';
import { writeSection } from '../report';

const REPORT = 'docs/benchmarks.md';

export async function writeFormattedSection(name: string, markdown: string): Promise<void> {
  const options = { ...(await resolveConfig(REPORT)), parser: 'markdown' };
  const formatted = await format(markdown, options);
  console.log(formatted);
  writeSection(name, formatted);
}

/** A Markdown table (Prettier aligns it). */
export function table(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
