/**
 * Results latency: from the service finishing a visit to the note on screen, with the app's
 * notification receiver on, and (the reference) with polling only — 1 s growing ×1.5 to 5 s between
 * status calls (src/main/core/results/results-poller.ts).
 *
 *   node --import tsx bench/results-latency/main.ts [--quick]
 *
 * Browser mode with the built-in demo service, the only service the receiver is wired to today
 * (src/main/core/service/service-locator.ts). Needs `npm run build` and Chromium. `--quick`: one
 * visit each way.
 */
import { CONVERSATION_WAV, launchChromium } from '../browser-app/launch';
import { QUICK, requireBuild, requireChromium, runBenchmark } from '../browser-app/run';
import { report } from './markdown';
import { measureVisit, openWay, type Latency } from './visit';

const VISITS_EACH_WAY = QUICK ? 1 : 3;

runBenchmark('results-latency', 4 * 60_000, async () => {
  requireBuild();
  requireChromium();
  const started = Date.now();
  // One browser: each visit opens a new capture stream, which plays the file from its start.
  const browser = await launchChromium({ wav: CONVERSATION_WAV });
  const receiver = await openWay(browser, true);
  const polling = await openWay(browser, false);
  const latencies: Latency[] = [];
  for (let round = 0; round < VISITS_EACH_WAY; round++) {
    // Alternating, and each way first in turn, so neither always meets a busier machine.
    const order = round % 2 === 0 ? [receiver, polling] : [polling, receiver];
    for (const way of order) {
      const id = `latency${way.notificationReceiver ? 'notified' : 'polled'}${round + 1}`;
      latencies.push(await measureVisit(way, id));
      const l = latencies.at(-1)!;
      console.log(
        `${id}: completed ${l.processingMs} ms after End; note status ${l.statusMs.toFixed(0)} ms, ` +
          `sections ${l.sectionsMs?.toFixed(0) ?? '—'} ms after completed`,
      );
    }
  }
  await report({ latencies, wallSeconds: (Date.now() - started) / 1000 });
});
