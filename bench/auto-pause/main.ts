/**
 * Auto-pause: speech that never reached the service (goal 0 ms) and silence kept from it, browser
 * mode against the sandbox process with the default auto-pause (4 s) and the reference (20 s: the
 * fixture's 8 s silence does not pause).
 *
 *   npm run build && node --import tsx bench/auto-pause/main.ts [--quick]   # --quick: the default visit, End at 0:30
 */
import type { SandboxProcess } from '../../sandbox/test-support/sandbox-process';
import { CapturedAudio, contiguousFromZero } from '../../e2e/support/captured-audio';
import { readConversation } from '../../e2e/support/audio-analysis';
import { endVisitAt, startVisit, useExternalService } from '../support/app-page';
import * as run from '../support/run';
import { report, type Visit, type VisitResult } from './markdown';
import { alignCapture, gaps, matchChunks } from './timeline';

const conversation = readConversation(run.CONVERSATION_WAV, run.CONVERSATION_TURNS);
/** A second after the last word: End then loses none of the conversation. */
const END_AT = run.QUICK ? '0:30' : `0:${Math.ceil(conversation.turns.at(-1)!.endMs / 1_000 + 1)}`;
/** Statuses after which the service takes no more audio. */
const DONE = new Set(['processing', 'completed', 'skipped', 'failed', 'cancelled']);

/** One visit: the chunks the page sent to the app core (read off the contract socket) and the service's audio. */
async function recordVisit(sandbox: SandboxProcess, autoPauseSeconds: number): Promise<Visit> {
  const encounterId = `autopause${autoPauseSeconds}`;
  const browser = await run.startChromium({ wav: run.CONVERSATION_WAV });
  const app = await run.startApp();
  const page = await browser.newPage();
  const audio = new CapturedAudio(page);
  await page.goto(app.host.launchUrl);
  await useExternalService(page, sandbox.url, { providerId: `bench-${encounterId}`, autoPauseSeconds });
  await startVisit(page, encounterId);
  const { id } = await sandbox.sessionOf(encounterId);
  await endVisitAt(page, END_AT);
  const deadline = Date.now() + 60_000;
  for (
    let session = await sandbox.session(id);
    !DONE.has(session.status);
    session = await sandbox.session(id)
  ) {
    if (Date.now() > deadline)
      throw new run.CannotMeasure(`the service's session stayed ${session.status} for a minute after End`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const servicePcm = await sandbox.audio(id);
  await page.close();
  await app.close();
  return { autoPauseSeconds, sent: audio.chunks, servicePcm };
}

function analyse(visit: Visit): VisitResult {
  const seqs = visit.sent.map((c) => c.seq);
  if (seqs.join() !== contiguousFromZero(seqs.length).join())
    throw new run.CannotMeasure(
      `the page's chunk numbers are not 0, 1, 2, … (auto-pause ${visit.autoPauseSeconds} s)`,
    );
  const delivery = matchChunks(visit.sent, visit.servicePcm);
  const alignment = alignCapture(conversation, visit.sent);
  if (alignment.correlation < 0.9)
    throw new run.CannotMeasure(
      `the captured audio does not line up with the fixture (waveform r ${alignment.correlation.toFixed(3)})`,
    );
  return { visit, delivery, alignment, gaps: gaps(delivery.reached, alignment.lag, conversation) };
}

run.runBenchmark('auto-pause', 4 * 60_000, async () => {
  run.requireBuild();
  const started = Date.now();
  // Energy segments, not pocketsphinx: only the audio matters here, not the note.
  const sandbox = await run.startSandbox({ asr: 'energy' });
  // Side by side (two browsers, two app processes, one sandbox): the visits are real time.
  const visits = await Promise.all(
    (run.QUICK ? [4] : [4, 20]).map((seconds) => recordVisit(sandbox, seconds)),
  );
  const results = visits.map(analyse);
  for (const r of results) {
    console.log(
      `auto-pause ${r.visit.autoPauseSeconds} s: ${r.visit.sent.length} chunks sent by the page, ` +
        `${r.delivery.reached.filter(Boolean).length} at the service; lag ${r.alignment.lag} samples ` +
        `(r ${r.alignment.correlation.toFixed(3)}), after the silence ${r.alignment.lateLag} ` +
        `(r ${r.alignment.lateCorrelation.toFixed(3)})`,
    );
  }
  await report({ results, conversation, endAt: END_AT, wallSeconds: (Date.now() - started) / 1000 });
});
