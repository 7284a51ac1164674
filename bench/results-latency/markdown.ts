/** The results-latency figures: printed, written as its section of docs/benchmarks.md, and its headline row. */
import { loadNote, machineLine, max, median, num, ratio, saveHeadline, writeSection } from '../report';

export interface Latency {
  notificationReceiver: boolean;
  /** End pressed → the service's session completed, ms (processing, for context). */
  processingMs: number;
  /** Service completed → "The note is ready." in the page, ms. */
  statusMs: number;
  /** Service completed → the note's first section in the page, ms (undefined if not seen). */
  sectionsMs: number | undefined;
}

const SECTION = 'results-latency';

export async function report(input: { latencies: Latency[]; wallSeconds: number }): Promise<void> {
  const notified = input.latencies.filter((l) => l.notificationReceiver);
  const polled = input.latencies.filter((l) => !l.notificationReceiver);
  const status = (ls: Latency[]) => ls.map((l) => l.statusMs);
  const sections = (ls: Latency[]) => ls.flatMap((l) => (l.sectionsMs === undefined ? [] : [l.sectionsMs]));
  const ours = { median: median(status(notified)), max: max(status(notified)) };
  const reference = { median: median(status(polled)), max: max(status(polled)) };
  const r = ratio(ours.median, reference.median);
  const list = (values: number[]) => values.map((v) => num(v)).join(', ');
  const summary = (values: number[]) =>
    values.length === 0 ? '—' : `${num(median(values))} / ${num(max(values))}`;
  const row = (label: string, ls: Latency[]) =>
    `| ${label} | ${ls.length} | ${summary(status(ls))} | ${list(status(ls))} | ${summary(sections(ls))} | ${num(median(ls.map((l) => l.processingMs)))} |`;

  const markdown = `## Results latency: service done → note on screen

${machineLine()}. Wall time of the whole script: ${Math.round(input.wallSeconds)} s; ${loadNote()}.

**With the notification receiver: median ${num(ours.median)} ms, max ${num(ours.max)} ms from the service
completing the session to "The note is ready." on screen; polling only (reference): median
${num(reference.median)} ms, max ${num(reference.max)} ms${r !== undefined ? ` (ratio ${r})` : ''}.**

| app setting | visits | → "The note is ready." median / max (ms) | each visit (ms) | → the note’s first section median / max (ms) | End → service completed, median (ms) |
| --- | --- | --- | --- | --- | --- |
${row('notification receiver on', notified)}
${row('polling only (reference)', polled)}

These visits finished about ${num(median(polled.map((l) => l.processingMs)))} ms after End; with polling the wait is from
there to the next status call.

Run: \`node --import tsx bench/results-latency/main.ts\` (\`--quick\`: one visit each way).`;

  await writeSection(SECTION, markdown);
  saveHeadline(SECTION, [
    {
      metric: 'Results latency: service done → note on screen, median (max)',
      ours: `${num(ours.median)} ms (${num(ours.max)} ms) with the notification receiver`,
      reference: `${num(reference.median)} ms (${num(reference.max)} ms) polling only`,
      ...(r !== undefined ? { ratio: r } : {}),
    },
  ]);
}
