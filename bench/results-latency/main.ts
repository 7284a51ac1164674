/**
 * Results latency: service done → the note on screen, with the notification receiver on and (the
 * reference) polling only, in browser mode with the built-in demo service.
 *
 *   npm run build && node --import tsx bench/results-latency/main.ts [--visits 3] [--quick]   # --quick: one visit each way
 */
import type { Browser } from '@playwright/test';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  endVisitAt,
  readMarks,
  recordMarks,
  startVisit,
  useBuiltinService,
  type Mark,
} from '../support/app-page';
import {
  CannotMeasure,
  numberArg,
  CONVERSATION_WAV,
  QUICK,
  requireBuild,
  runBenchmark,
  startApp,
  startChromium,
} from '../support/run';
import { report, type Latency } from './markdown';

const VISITS_EACH_WAY = QUICK ? 1 : numberArg('visits', 3);
const NOTE_READY = 'The note is ready.';

/**
 * When the built-in sandbox (inside the app process) saw the encounter's ambient session reach
 * `completed`: it keeps each session's record, timeline included, as
 * `<data>/sandbox/sessions/<id>.json`, rewritten at every status change (its clock: Date.now()).
 */
async function completedAt(dataDir: string, encounterId: string): Promise<number> {
  const dir = join(dataDir, 'sandbox', 'sessions');
  const deadline = Date.now() + 10_000;
  for (;;) {
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json'))) {
      let record: { kind: string; encounterId: string; timeline: { at: number; type: string }[] };
      try {
        record = JSON.parse(await readFile(join(dir, name), 'utf8'));
      } catch {
        continue; // being replaced
      }
      if (record.encounterId !== encounterId || record.kind !== 'ambient') continue;
      const event = record.timeline.find((e) => e.type === 'status:completed');
      if (event) return event.at;
    }
    if (Date.now() > deadline)
      throw new CannotMeasure(`the built-in sandbox has no "completed" for encounter ${encounterId}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Browser mode on a fresh data directory, first run done with the receiver on or off. */
async function openWay(browser: Browser, notificationReceiver: boolean) {
  const app = await startApp();
  const page = await (await browser.newContext()).newPage();
  await recordMarks(page, [
    { name: 'status', selector: '[data-testid="results-status"]' },
    { name: 'sections', selector: '[data-testid="results"] .note-section h4' },
  ]);
  await page.goto(app.host.launchUrl);
  await useBuiltinService(page, notificationReceiver);
  return { notificationReceiver, app, page };
}

/** One short visit: the first turn (it ends at 3.4 s: End at 0:04), then the note's arrival. */
async function measureVisit(way: Awaited<ReturnType<typeof openWay>>, encounterId: string): Promise<Latency> {
  const { page } = way;
  await startVisit(page, encounterId);
  const endedAt = await endVisitAt(page, '0:04', 30_000);
  await page.getByTestId('results-status').filter({ hasText: NOTE_READY }).waitFor({ timeout: 60_000 });
  const completed = await completedAt(way.app.dataDir, encounterId);
  const marks = await readMarks(page);
  const after = (name: string, value?: string) =>
    marks.find(
      (m: Mark) => m.name === name && m.at >= endedAt && (value === undefined || m.value.trim() === value),
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

runBenchmark('results-latency', 4 * 60_000, async () => {
  requireBuild();
  const started = Date.now();
  // One browser: each visit opens a new capture stream, which plays the file from its start.
  const browser = await startChromium({ wav: CONVERSATION_WAV });
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
