/** The auto-pause benchmark's figures: printed, written as its section of docs/benchmarks.md, and its headline rows. */
import type { Conversation } from '../../e2e/support/audio-analysis';
import { table, writeFormattedSection } from '../browser-app/section';
import { loadNote } from '../browser-app/run';
import { num } from '../browser-app/stats';
import { saveHeadline, type HeadlineRow } from '../headline';
import { machineLine } from '../report';
import type { Delivery } from './chunks-at-service';
import type { Alignment, Gap } from './timeline';
import type { Visit } from './visit';

const SECTION = 'auto-pause';
const CHUNK_MS = 100;

export interface VisitResult {
  visit: Visit;
  delivery: Delivery;
  alignment: Alignment;
  gaps: Gap[];
}

interface Totals {
  captured: number;
  reached: number;
  pausedChunks: number;
  pausedMs: number;
  speechMissingMs: number;
  silenceSavedMs: number;
  afterEndChunks: number;
}

function totals(r: VisitResult): Totals {
  const during = r.gaps.filter((g) => !g.afterEnd);
  const pausedMs = during.reduce((s, g) => s + g.toMs - g.fromMs, 0);
  const speechMissingMs = r.gaps.reduce((s, g) => s + g.speechMs, 0);
  return {
    captured: r.visit.sent.length,
    reached: r.delivery.reached.filter(Boolean).length,
    pausedChunks: during.reduce((s, g) => s + g.chunks, 0),
    pausedMs,
    speechMissingMs,
    silenceSavedMs: pausedMs - during.reduce((s, g) => s + g.speechMs, 0),
    afterEndChunks: r.gaps.filter((g) => g.afterEnd).reduce((s, g) => s + g.chunks, 0),
  };
}

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const signedMs = (v: number | undefined) => (v === undefined ? '—' : num(v));

export async function report(input: {
  results: VisitResult[];
  conversation: Conversation;
  endAt: string;
  wallSeconds: number;
}): Promise<void> {
  const { results, conversation } = input;
  const ours = results[0]!;
  const reference = results[1];
  const t = totals(ours);
  const ref = reference ? totals(reference) : undefined;
  const speechMs = conversation.turns.reduce((s, turn) => s + turn.endMs - turn.startMs, 0);
  const label = (r: VisitResult) =>
    `auto-pause ${r.visit.autoPauseSeconds} s${r === ours ? ' (default)' : ' (reference)'}`;

  const summary = table(
    [
      'visit',
      'chunks the page sent',
      'reached the service',
      'not sent while recording',
      'true speech in them (goal 0)',
      'silence not sent',
      'captured after End, not sent',
      'service bytes matching no chunk',
    ],
    results.map((r) => {
      const x = totals(r);
      return [
        label(r),
        num(x.captured),
        num(x.reached),
        `${num(x.pausedChunks)} (${sec(x.pausedMs)})`,
        `${num(x.speechMissingMs)} ms`,
        sec(x.silenceSavedMs),
        num(x.afterEndChunks),
        num(r.delivery.unmatchedServiceBytes),
      ];
    }),
  );
  const runs = results.flatMap((r) => r.gaps.filter((g) => !g.afterEnd).map((g) => ({ r, g })));
  const gapTable =
    runs.length === 0
      ? 'No chunk went unsent while recording.'
      : table(
          [
            'visit',
            'not sent (fixture time)',
            'chunks',
            'began after the last word (ms)',
            'ended before the next turn (ms)',
            'true speech in it (ms)',
          ],
          runs.map(({ r, g }) => [
            label(r),
            `${(g.fromMs / 1000).toFixed(2)}–${(g.toMs / 1000).toFixed(2)} s`,
            g.chunks,
            signedMs(g.afterLastWordMs),
            signedMs(g.beforeNextTurnMs),
            num(g.speechMs),
          ]),
        );
  const states = (r: VisitResult) => {
    const shown: string[] = [];
    for (const m of r.visit.states) if (shown.at(-1) !== m.value) shown.push(m.value);
    return shown.join(' → ');
  };

  const markdown = `## Auto-pause: speech missing at the service

${machineLine()}. Wall time of the whole script: ${Math.round(input.wallSeconds)} s; ${loadNote()}.

**True speech that never reached the service with the default auto-pause (4 s): ${num(t.speechMissingMs)} ms**
(goal 0 ms${t.speechMissingMs === 0 ? ', met' : ', **not met**'}). **Silence it kept from the service: ${sec(t.silenceSavedMs)}**
of ${sec(t.captured * CHUNK_MS)} captured${ref ? `; the reference (auto-pause 20 s) sent all but ${sec(ref.pausedMs)} while recording` : ''}.

${summary}

Stretches of captured audio that did not reach the service while recording (fixture time; "last word"
and "next turn" from \`e2e/fixtures/conversation.turns.json\`; negative would mean the stretch cut into a turn):

${gapTable}

Recorder states the page showed: ${results.map((r) => `${label(r)}: ${states(r)}`).join('; ')}.
${results.map((r) => `${label(r)}: the captured audio lines up with the file at a lag of ${r.alignment.lag} samples (${num((1000 * r.alignment.lag) / 16_000, 1)} ms, waveform r ${r.alignment.correlation.toFixed(3)}) on the first turn and ${r.alignment.lateLag} samples (r ${r.alignment.lateCorrelation.toFixed(3)}) on the first turn after the silence`).join('; ')}.

**How it was measured.** Browser mode (\`out/main/browser.js\`) with Chromium's fake microphone playing
\`e2e/fixtures/conversation.wav\` once (${num(speechMs)} ms of speech in ${conversation.turns.length} turns, an 8 s
silence at 18.9–26.9 s), pointed at the sandbox as its own process (\`out/main/sandbox.js\`, time scale 1, bearer
partner) and set up on the first-run screen with the auto-pause delay under test; End at the visit clock's ${input.endAt}.
${reference ? 'The two visits ran side by side, each with its own Chromium and app process. ' : ''}Every chunk the page sent to
the app core is read off the contract WebSocket (\`e2e/support/captured-audio.ts\`); after End the service's audio
for the session comes from the sandbox's control API (\`GET /__sandbox/sessions/:id/audio.wav\`). A sent chunk
reached the service if its 3,200 bytes are the next 3,200 of the service's audio, walking both in order (the
recorder sends a subsequence of the captured chunks, pre-roll included, in order; 100 ms of audio does not repeat
by chance). Each chunk is placed on the fixture's clock by lining the captured audio up with the WAV by
cross-correlation (the chunk headers' capture times are on the renderer's clock and say nothing about where in
the file the fake device was when capture began); the true speech in a chunk that did not arrive is its overlap
with the turns. Chunks the page sent after End are counted apart: the recorder had stopped sending by then.

Run: \`node --import tsx bench/auto-pause/main.ts\` (\`--quick\`: the default visit only, ended at 0:30).`;

  await writeFormattedSection(SECTION, markdown);
  const rows: HeadlineRow[] = [
    {
      metric: 'Speech missing at the service after auto-pause (default 4 s)',
      ours: `${num(t.speechMissingMs)} ms`,
      goal: '0 ms',
      met: t.speechMissingMs === 0,
    },
    {
      metric: 'Silence kept from the service by auto-pause (40 s conversation, 8 s silence)',
      ours: sec(t.silenceSavedMs),
      ...(ref ? { reference: `${sec(ref.silenceSavedMs)} (auto-pause 20 s)` } : {}),
    },
  ];
  console.log('headline:', saveHeadline(SECTION, rows));
}
