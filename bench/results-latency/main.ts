/**
 * Results latency: service done → the note on screen, with the notification receiver on and (the
 * reference) polling only, in browser mode with the built-in demo service.
 *
 *   npm run build && node --import tsx bench/results-latency/main.ts [--visits 3] [--quick]   # --quick: one visit each way
 */
import type { Browser } from '@playwright/test';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonFile } from '../../sandbox/persistence';
import { createFileSecretBox } from '../../src/main/core/secrets/file-secret-box';
import { demoAtRestCipher } from '../../src/main/core/service/demo-at-rest';
import { loadSpoolKey } from '../../src/main/core/spool/spool-key';
import * as ui from '../support/app-page';
import * as run from '../support/run';
import { loadNote, machineLine, max, median, num, ratio, saveHeadline, writeSection } from '../report';

const VISITS_EACH_WAY = run.QUICK ? 1 : run.numberArg('visits', 3);
const NOTE_READY = 'The note is ready.';

/**
 * When the built-in sandbox (inside the app process) saw the encounter's ambient session reach
 * `completed`: it keeps each session's record, timeline included, as
 * `<data>/sandbox/sessions/<id>.json.sealed`, rewritten at every status change (its clock:
 * Date.now()), sealed with a key derived from the app's spool key (demo-at-rest.ts). The bench
 * owns the data directory, so it opens them as the app does: the spool key from browser mode's
 * secret file.
 */
async function completedAt(dataDir: string, encounterId: string): Promise<number> {
  const dir = join(dataDir, 'sandbox', 'sessions');
  const secrets = createFileSecretBox({ filePath: join(dataDir, 'browser-secrets.json') });
  const cipher = demoAtRestCipher(await loadSpoolKey(secrets));
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json.sealed'))) {
      let record: { kind: string; encounterId: string; timeline: { at: number; type: string }[] };
      try {
        const read = await jsonFile<typeof record>(join(dir, name), cipher).read();
        if (!read) continue;
        record = read;
      } catch {
        continue; // being replaced
      }
      if (record.encounterId !== encounterId || record.kind !== 'ambient') continue;
      const event = record.timeline.find((e) => e.type === 'status:completed');
      if (event) return event.at;
    }
    if (Date.now() > deadline)
      throw new run.CannotMeasure(`the built-in sandbox has no "completed" for encounter ${encounterId}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Browser mode on a fresh data directory, first run done with the receiver on or off. */
async function openWay(browser: Browser, notificationReceiver: boolean) {
  const app = await run.startApp();
  const page = await (await browser.newContext()).newPage();
  await ui.recordMarks(page, [
    { name: 'status', selector: '[data-testid="results-status"]' },
    { name: 'sections', selector: '[data-testid="results"] .note-section h4' },
  ]);
  await page.goto(app.host.launchUrl);
  await ui.useBuiltinService(page, notificationReceiver);
  return { notificationReceiver, app, page };
}

/** One short visit: the first turn (it ends at 3.4 s: End at 0:04), then the note's arrival. */
async function measureVisit(way: Awaited<ReturnType<typeof openWay>>, encounterId: string) {
  const { page } = way;
  await ui.startVisit(page, encounterId);
  const endedAt = await ui.endVisitAt(page, '0:04', 30_000);
  await page.getByTestId('results-status').filter({ hasText: NOTE_READY }).waitFor({ timeout: 60_000 });
  const completed = await completedAt(way.app.dataDir, encounterId);
  const marks = await ui.readMarks(page);
  const after = (name: string, value?: string) =>
    marks.find(
      (m: ui.Mark) => m.name === name && m.at >= endedAt && (value === undefined || m.value.trim() === value),
    )?.at;
  const statusAt = after('status', NOTE_READY);
  if (statusAt === undefined) throw new Error(`no "${NOTE_READY}" mark after End (${encounterId})`);
  const sectionsAt = after('sections');
  return {
    notificationReceiver: way.notificationReceiver,
    processingMs: completed - endedAt,
    statusMs: statusAt - completed,
    sectionsMs: sectionsAt === undefined ? undefined : sectionsAt - completed,
  };
}

type Latency = Awaited<ReturnType<typeof measureVisit>>;

const SECTION = 'results-latency';

async function report(input: { latencies: Latency[]; wallSeconds: number }): Promise<void> {
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

run.runBenchmark('results-latency', 4 * 60_000, async () => {
  run.requireBuild();
  const started = Date.now();
  // One browser: each visit opens a new capture stream, which plays the file from its start.
  const browser = await run.startChromium({ wav: run.CONVERSATION_WAV });
  const receiver = await openWay(browser, true);
  const polling = await openWay(browser, false);
  const latencies: Latency[] = [];
  for (let round = 0; round < VISITS_EACH_WAY; round++) {
    // Alternating, and each way first in turn, so neither always meets a busier machine.
    for (const way of round % 2 === 0 ? [receiver, polling] : [polling, receiver]) {
      const id = `latency${way.notificationReceiver ? 'notified' : 'polled'}${round + 1}`;
      const l = await measureVisit(way, id);
      latencies.push(l);
      console.log(
        `${id}: completed ${l.processingMs} ms after End; note status ${l.statusMs.toFixed(0)} ms, ` +
          `sections ${l.sectionsMs?.toFixed(0) ?? '—'} ms after completed`,
      );
    }
  }
  await report({ latencies, wallSeconds: (Date.now() - started) / 1000 });
});
