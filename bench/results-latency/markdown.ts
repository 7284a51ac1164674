/** The results-latency figures: printed, written as its section of docs/benchmarks.md, and its headline row. */
import { table, writeFormattedSection } from '../browser-app/section';
import { loadNote } from '../browser-app/run';
import { max, median, num } from '../browser-app/stats';
import { ratio, saveHeadline, type HeadlineRow } from '../headline';
import { machineLine } from '../report';
import type { Latency } from './visit';

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

  const markdown = `## Results latency: service done → note on screen

${machineLine()}. Wall time of the whole script: ${Math.round(input.wallSeconds)} s; ${loadNote()}.

**With the notification receiver: median ${num(ours.median)} ms, max ${num(ours.max)} ms from the service
completing the session to "The note is ready." on screen; polling only (reference): median
${num(reference.median)} ms, max ${num(reference.max)} ms${r !== undefined ? ` (ratio ${r})` : ''}.**

${table(
  [
    'app setting',
    'visits',
    '→ "The note is ready." median / max (ms)',
    'each visit (ms)',
    '→ the note’s first section median / max (ms)',
    'End → service completed, median (ms)',
  ],
  [
    [
      'notification receiver on',
      notified.length,
      summary(status(notified)),
      list(status(notified)),
      summary(sections(notified)),
      num(median(notified.map((l) => l.processingMs))),
    ],
    [
      'polling only (reference)',
      polled.length,
      summary(status(polled)),
      list(status(polled)),
      summary(sections(polled)),
      num(median(polled.map((l) => l.processingMs))),
    ],
  ],
)}

**How it was measured.** Browser mode (\`out/main/browser.js\`) with the built-in demo service, the one
service the app can give its notification address today (a real service's is set at onboarding;
\`src/main/core/service/service-locator.ts\`), so it runs inside the app process. Two app processes,
each set up on its first-run screen: one with **Notification receiver** switched on (the core listens on
127.0.0.1 and the sandbox posts a signed notification when a session finishes, which wakes the results poll at
once), one with it off (a status call when End returns, then 1 s, 2.5 s, 4.75 s, 8.1 s, … after it, the gap growing
×1.5 up to 5 s: \`src/main/core/results/results-poller.ts\`). With polling, the wait is from the service finishing to the next
status call, so it depends on where the finish falls between calls: these short visits finish about ${num(median(polled.map((l) => l.processingMs)))} ms
after End, a little before the 2.5 s call; a visit whose processing ends just after a call waits up to the gap (5 s at most). One Chromium plays \`e2e/fixtures/conversation.wav\` as its fake
microphone; each visit records the first turn (End at the visit clock's 0:04), the two ways alternating.
"Service done" is the \`status:completed\` entry of the session's timeline, which the sandbox saves under
\`<data>/sandbox/sessions/\` (its clock: \`Date.now()\` in the app process); "on screen" is when a
MutationObserver in the page, installed before the app's scripts, saw the results card say "The note is
ready." (and when the note's first section appeared), timed with the page's \`performance.timeOrigin + now()\`:
the DOM change, the paint follows within a frame. Both clocks are this machine's wall clock.

Run: \`node --import tsx bench/results-latency/main.ts\` (\`--quick\`: one visit each way).`;

  await writeFormattedSection(SECTION, markdown);
  const rows: HeadlineRow[] = [
    {
      metric: 'Results latency: service done → note on screen, median (max)',
      ours: `${num(ours.median)} ms (${num(ours.max)} ms) with the notification receiver`,
      reference: `${num(reference.median)} ms (${num(reference.max)} ms) polling only`,
      ...(r !== undefined ? { ratio: r } : {}),
    },
  ];
  console.log('headline:', saveHeadline(SECTION, rows));
}
