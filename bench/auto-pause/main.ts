/**
 * Auto-pause: does any speech fail to reach the service (goal 0 ms), and how much silence does it
 * keep from being sent? Browser mode records the conversation fixture (Chromium's fake microphone)
 * against the sandbox in its own process, once with the default auto-pause (4 s: the fixture's 8 s
 * silence at 18.9–26.9 s pauses the stream) and, as the reference, once at 20 s (nothing pauses).
 *
 *   node --import tsx bench/auto-pause/main.ts [--quick]
 *
 * Needs `npm run build` and Chromium. `--quick`: only the default visit, ended at 0:30.
 */
import { contiguousFromZero } from '../../e2e/support/captured-audio';
import { readConversation } from '../../e2e/support/audio-analysis';
import { CONVERSATION_WAV, startSandbox } from '../browser-app/launch';
import { CannotMeasure, QUICK, requireBuild, requireChromium, runBenchmark } from '../browser-app/run';
import { matchChunks } from './chunks-at-service';
import { report, type VisitResult } from './markdown';
import { alignCapture, gaps } from './timeline';
import { recordVisit, type Visit } from './visit';

const conversation = readConversation(CONVERSATION_WAV, 'e2e/fixtures/conversation.turns.json');
/** A second after the last word: End then loses none of the conversation. */
const END_AT = QUICK ? '0:30' : `0:${Math.ceil(conversation.turns.at(-1)!.endMs / 1_000 + 1)}`;
const DEFAULT_AUTO_PAUSE_S = 4;
const REFERENCE_AUTO_PAUSE_S = 20;

function analyse(visit: Visit): VisitResult {
  const seqs = visit.sent.map((c) => c.seq);
  if (seqs.join() !== contiguousFromZero(seqs.length).join())
    throw new CannotMeasure(`the page's chunk numbers are not 0, 1, 2, … (${visit.encounterId})`);
  const delivery = matchChunks(visit.sent, visit.servicePcm);
  const alignment = alignCapture(conversation, visit.sent);
  if (alignment.correlation < 0.9)
    throw new CannotMeasure(
      `the captured audio does not line up with the fixture (waveform r ${alignment.correlation.toFixed(3)})`,
    );
  return { visit, delivery, alignment, gaps: gaps(delivery.reached, alignment.lag, conversation) };
}

runBenchmark('auto-pause', 4 * 60_000, async () => {
  requireBuild();
  requireChromium();
  const started = Date.now();
  // Energy segments, not pocketsphinx: only the audio matters here, not the note.
  const sandbox = await startSandbox({ asr: 'energy' });
  const plans = [
    { autoPauseSeconds: DEFAULT_AUTO_PAUSE_S, encounterId: 'autopause4', endAt: END_AT },
    ...(QUICK
      ? []
      : [{ autoPauseSeconds: REFERENCE_AUTO_PAUSE_S, encounterId: 'autopause20', endAt: END_AT }]),
  ];
  // Side by side (two browsers, two app processes, one sandbox): the visits are real time.
  const visits = await Promise.all(plans.map((plan) => recordVisit(sandbox, plan)));
  const results = visits.map(analyse);
  for (const r of results) {
    console.log(
      `auto-pause ${r.visit.autoPauseSeconds} s: ${r.visit.sent.length} chunks sent by the page, ` +
        `${r.delivery.reached.filter(Boolean).length} at the service; lag ${r.alignment.lag} samples ` +
        `(r ${r.alignment.correlation.toFixed(3)}), after the silence ${r.alignment.lateLag} ` +
        `(r ${r.alignment.lateCorrelation.toFixed(3)}); states ${r.visit.states.map((s) => s.value).join(' → ')}`,
    );
  }
  await report({ results, conversation, endAt: END_AT, wallSeconds: (Date.now() - started) / 1000 });
});
