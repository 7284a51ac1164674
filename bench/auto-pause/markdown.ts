/** The auto-pause benchmark's figures: printed, written as its section of docs/benchmarks.md, and its headline rows. */
import type { Conversation } from '../../e2e/support/audio-analysis';
import type { SentChunk } from '../../e2e/support/captured-audio';
import { loadNote, machineLine, num, saveHeadline, writeSection, type HeadlineRow } from '../report';
import type { Alignment, Delivery, Gap } from './timeline';

const SECTION = 'auto-pause';
const CHUNK_MS = 100;

export interface Visit {
  autoPauseSeconds: number;
  /** Every chunk the page sent, in order. */
  sent: SentChunk[];
  /** The session's PCM at the service, after End. */
  servicePcm: Buffer;
}

export interface VisitResult {
  visit: Visit;
  delivery: Delivery;
  alignment: Alignment;
  gaps: Gap[];
}

function totals(r: VisitResult) {
  const during = r.gaps.filter((g) => !g.afterEnd);
  const sum = (gaps: Gap[], of: (g: Gap) => number) => gaps.reduce((s, g) => s + of(g), 0);
  const pausedMs = sum(during, (g) => g.toMs - g.fromMs);
  return {
    captured: r.visit.sent.length,
    reached: r.delivery.reached.filter(Boolean).length,
    pausedChunks: sum(during, (g) => g.chunks),
    pausedMs,
    speechMissingMs: sum(r.gaps, (g) => g.speechMs),
    silenceSavedMs: pausedMs - sum(during, (g) => g.speechMs),
    afterEndChunks: sum(
      r.gaps.filter((g) => g.afterEnd),
      (g) => g.chunks,
    ),
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
  const summaryRows = results.map((r) => {
    const x = totals(r);
    return `| ${label(r)} | ${num(x.captured)} | ${num(x.reached)} | ${num(x.pausedChunks)} (${sec(x.pausedMs)}) | ${num(x.speechMissingMs)} ms | ${sec(x.silenceSavedMs)} | ${num(x.afterEndChunks)} | ${num(r.delivery.unmatchedServiceBytes)} |`;
  });
  const summary = `| visit | chunks the page sent | reached the service | not sent while recording | true speech in them (goal 0) | silence not sent | captured after End, not sent | service bytes matching no chunk |
| --- | --- | --- | --- | --- | --- | --- | --- |
${summaryRows.join('\n')}`;
  const runs = results.flatMap((r) => r.gaps.filter((g) => !g.afterEnd).map((g) => ({ r, g })));
  const gapTable =
    runs.length === 0
      ? 'No chunk went unsent while recording.'
      : `| visit | not sent (fixture time) | chunks | began after the last word (ms) | ended before the next turn (ms) | true speech in it (ms) |
| --- | --- | --- | --- | --- | --- |
${runs.map(({ r, g }) => `| ${label(r)} | ${(g.fromMs / 1000).toFixed(2)}–${(g.toMs / 1000).toFixed(2)} s | ${g.chunks} | ${signedMs(g.afterLastWordMs)} | ${signedMs(g.beforeNextTurnMs)} | ${num(g.speechMs)} |`).join('\n')}`;
  const markdown = `## Auto-pause: speech missing at the service

${machineLine()}. Wall time of the whole script: ${Math.round(input.wallSeconds)} s; ${loadNote()}.

**True speech that never reached the service with the default auto-pause (4 s): ${num(t.speechMissingMs)} ms**
(goal 0 ms${t.speechMissingMs === 0 ? ', met' : ', **not met**'}). **Silence it kept from the service: ${sec(t.silenceSavedMs)}**
of ${sec(t.captured * CHUNK_MS)} captured${ref ? `; the reference (auto-pause 20 s) sent all but ${sec(ref.pausedMs)} while recording` : ''}.

${summary}

Stretches of captured audio that did not reach the service while recording (fixture time; "last word"
and "next turn" from \`e2e/fixtures/conversation.turns.json\`; negative would mean the stretch cut into a turn):

${gapTable}

${results.map((r) => `${label(r)}: the captured audio lines up with the file at a lag of ${r.alignment.lag} samples (${num((1000 * r.alignment.lag) / 16_000, 1)} ms, waveform r ${r.alignment.correlation.toFixed(3)}) on the first turn and ${r.alignment.lateLag} samples (r ${r.alignment.lateCorrelation.toFixed(3)}) on the first turn after the silence`).join('; ')}.
The fixture: ${num(speechMs)} ms of speech in ${conversation.turns.length} turns; End at the visit clock's ${input.endAt}${reference ? '; the two visits ran side by side, each with its own Chromium and app process' : ''}.

Run: \`node --import tsx bench/auto-pause/main.ts\` (\`--quick\`: the default visit only, ended at 0:30).`;

  await writeSection(SECTION, markdown);
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
  saveHeadline(SECTION, rows);
}
