import type { HeadlineRow } from './headline';

export type { HeadlineRow } from './headline';

interface GlanceInput {
  machine: string;
  totalS: number;
  outcomes: { benchmark: { section: string; title: string }; seconds: number; ok: boolean }[];
  headlines: Map<string, HeadlineRow[]>;
  /** Only some scripts ran (--only): the glance says so. */
  partial: boolean;
}

const cell = (text: string | undefined) => (text ?? '—').replace(/\|/g, '\\|');

function ratioText(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return '—';
  return `${ratio >= 10 ? ratio.toFixed(0) : ratio >= 1 ? ratio.toFixed(2) : ratio.toPrecision(2)}×`;
}

/** The report's first section: where and when, how long each script took, and the headlines. */
export function headlineMarkdown(input: GlanceInput): string {
  const lines = [
    '## At a glance',
    '',
    `${input.machine}. \`npm run bench\` took ${Math.round(input.totalS)} s${input.partial ? ' (only some scripts ran: the other sections are from earlier runs)' : ''}.`,
    '',
    'Ratios are ours / the reference measured in the same run (below 1× is better for times and',
    'costs, above 1× for quality and capacity; each row says which). Sections below give the method.',
    '',
    '| section | metric | ours | reference | ratio | goal | met |',
    '| ------- | ------ | ---: | --------: | ----: | ---- | --- |',
  ];
  for (const { benchmark, ok } of input.outcomes) {
    const rows = input.headlines.get(benchmark.section) ?? [];
    if (!ok || rows.length === 0) {
      lines.push(
        `| ${benchmark.section} | ${ok ? 'see the section' : 'not measured: the script failed'} | | | | | |`,
      );
      continue;
    }
    for (const row of rows) {
      const met = row.met === undefined ? '—' : row.met ? 'yes' : '**no**';
      lines.push(
        `| ${benchmark.section} | ${cell(row.metric)} | ${cell(row.ours)} | ${cell(row.reference)} | ${ratioText(row.ratio)} | ${cell(row.goal)} | ${met} |`,
      );
    }
  }
  lines.push('', '| script | wall time (s) | outcome |', '| ------ | ------------: | ------- |');
  for (const { benchmark, seconds, ok } of input.outcomes) {
    lines.push(`| ${benchmark.section} | ${Math.round(seconds)} | ${ok ? 'measured' : 'failed'} |`);
  }
  return lines.join('\n');
}
