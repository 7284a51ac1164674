/** The numbers of one run → the core-encounter section of docs/benchmarks.md (the method follows it there). */
import type { SandboxSession } from '../../sandbox/test-support/sandbox-process';
import { machineLine, ratio as ratioOf, type HeadlineRow } from '../report';
import type { Measurements } from './main';
import { CHUNK_MS, countInto, quietRuns, type HeapTrace, type Memory } from './visit';

const fixed = (n: number, digits = 2) => n.toFixed(digits);
const ratio = (ours: number, reference: number) =>
  Math.abs(reference) < 0.05 ? '—' : `${(ours / reference).toFixed(1)}×`;
const listCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => `${key} ×${n}`)
    .join(', ') || 'none';
const atService = (session: SandboxSession) => {
  const counts: Record<string, number> = {};
  for (const { type } of session.timeline)
    if (['PAUSE', 'RESUME', 'KEEP_ALIVE', 'close:4001'].includes(type)) countInto(counts, type);
  return `${listCounts(counts)} over ${session.connections} stream connection(s)`;
};
type Kind = keyof Memory;
const growth = (h: HeapTrace, kind: Kind = 'heapMb') => h.end[kind] - h.start[kind];
const peak = (h: HeapTrace, kind: Kind) => Math.max(...h.minutes.map((m) => m[kind])) - h.start[kind];
/** Above start at minutes 5, 10, … */
const everyFive = (h: HeapTrace, kind: Kind) =>
  h.minutes
    .filter((_, i) => (i + 2) % 5 === 0)
    .map((m) => fixed(m[kind] - h.start[kind], 1))
    .join(', ');

export function encounterMarkdown(m: Measurements): string {
  const { ours, reference, oursJitter, referenceJitter, speed } = m;
  const oursHeap = ours.heap!;
  const memoryRow = (label: string, of: (h: HeapTrace) => number, goal = '— | —') =>
    `| ${label} | ${ratio(of(oursHeap), of(reference.heap))} | ${fixed(of(oursHeap))} | ${fixed(of(reference.heap))} | ${goal} |`;
  const jitterRow = (p: 'p50' | 'p99', goal = '— | —') =>
    `| send jitter ${p} at 1× (ms) | ${ratio(oursJitter[p], referenceJitter[p])} | ${fixed(oursJitter[p])} | ${fixed(referenceJitter[p])} | ${goal} |`;
  const warnings = Object.fromEntries(Object.entries(ours.logs).filter(([key]) => !key.startsWith('info')));
  const tokenRefreshes = (ours.logs['info auth: signed in to the service'] ?? 0) - 1;
  const sameAudio = m.oursAtService.pcm_sha256 === m.referenceAtService.pcm_sha256;
  const bytes = (s: SandboxSession) => s.received_bytes.toLocaleString('en');
  const speechShare = m.plan.reduce((sum, s) => sum + s, 0) / m.plan.length;

  return `## Core: a ${m.minutes}-minute encounter through the contract

${machineLine()}. Wall time of the whole script: ${fixed(m.totalS, 0)} s.

| measure | ours / reference | ours (core) | reference (bare \`ws\` client) | goal | met |
|---|---:|---:|---:|---|---|
${memoryRow('heap growth over the visit (MB)', (h) => growth(h), `≤ 5 MB | ${growth(oursHeap) <= 5 ? 'yes' : '**no**'}`)}
${memoryRow('highest per-minute heap above start (MB)', (h) => peak(h, 'heapMb'))}
${memoryRow('ArrayBuffer growth over the visit (MB)', (h) => growth(h, 'buffersMb'))}
${memoryRow('highest per-minute ArrayBuffers above start (MB)', (h) => peak(h, 'buffersMb'))}
${jitterRow('p50')}
${jitterRow('p99', `≤ 30 ms | ${oursJitter.p99 <= 30 ? 'yes' : '**no**'}`)}
| CPU time over the ${speed}× replay (s) | ${ratio(ours.cpuS, reference.cpuS)} | ${fixed(ours.cpuS, 1)} | ${fixed(reference.cpuS, 1)} | — | — |

**Heap.** ${m.minutes} min of 100 ms chunks (${m.plan.length.toLocaleString('en')}), ${fixed(100 * speechShare, 0)} % speech by
the VAD flag, ${quietRuns(m.plan)} stretches of ≥ 4 s quiet, played at ${speed}× (a chunk every ${fixed(CHUNK_MS / speed, 0)} ms of wall
clock) against the sandbox at \`--time-scale ${fixed(1 / speed)}\`. Above start at minutes 5, 10, … (MB): heap ours
${everyFive(oursHeap, 'heapMb')}; reference ${everyFive(reference.heap, 'heapMb')}. ArrayBuffers ours
${everyFive(oursHeap, 'buffersMb')}; reference ${everyFive(reference.heap, 'buffersMb')}.

- Ours: replay ${fixed(ours.wallMs / 1000, 0)} s wall (latest chunk ${fixed(ours.maxLagMs, 0)} ms behind schedule), results ${ours.status} ${fixed(ours.resultsAfterMs / 1000, 1)} s
  after End (${ours.summarySections} note sections, ${ours.transcriptEntries} transcript entries); the service saw
  ${atService(m.oursAtService)}; service-token refreshes: ${tokenRefreshes} (the sandbox's token lifetime scaled to
  ${fixed(60 / speed, 0)} min, on the core's ${speed}× clock); warnings and errors logged: ${listCounts(warnings)};
  chunks refused by the core: ${ours.refusedChunks}.
- Reference: replay ${fixed(reference.wallMs / 1000, 0)} s wall (${fixed(reference.maxLagMs, 0)} ms behind at worst), results ${reference.status};
  the service saw ${atService(m.referenceAtService)}.
- Audio at the service: ours ${bytes(m.oursAtService)} bytes, reference ${bytes(m.referenceAtService)} bytes;
  ${sameAudio ? 'identical (same SHA-256): the reference sent the same frames' : 'not identical (SHA-256 differs)'}.

**Jitter.** ${m.jitterSeconds} s at real time: ours ${oursJitter.frames} frames, worst ${fixed(oursJitter.max, 1)} ms;
reference ${referenceJitter.frames} frames, worst ${fixed(referenceJitter.max, 1)} ms.

Run: \`node --expose-gc --import tsx bench/core-encounter/main.ts\` (build first; \`--minutes\`, \`--speed\` and
\`--jitter-seconds\` change the visit).`;
}

/** The rows "At a glance" leads with: heap, send jitter and CPU, each against the bare client. */
export function encounterHeadline({
  ours,
  reference,
  oursJitter,
  referenceJitter,
  speed,
}: Measurements): HeadlineRow[] {
  const [oursGrowth, referenceGrowth] = [growth(ours.heap!), growth(reference.heap)];
  return [
    {
      metric: `heap growth over a 60-minute visit replayed at ${speed}× (lower is better)`,
      ours: `${fixed(oursGrowth)} MB`,
      reference: `bare client ${fixed(referenceGrowth)} MB`,
      ratio: ratioOf(oursGrowth, referenceGrowth),
      goal: '≤ 5 MB',
      met: oursGrowth <= 5,
    },
    {
      metric: 'send jitter at 1×, p99 (lower is better)',
      ours: `${fixed(oursJitter.p99)} ms`,
      reference: `bare client ${fixed(referenceJitter.p99)} ms`,
      ratio: ratioOf(oursJitter.p99, referenceJitter.p99),
      goal: '≤ 30 ms',
      met: oursJitter.p99 <= 30,
    },
    {
      metric: `CPU time over the ${speed}× replay (lower is better)`,
      ours: `${fixed(ours.cpuS, 1)} s`,
      reference: `bare client ${fixed(reference.cpuS, 1)} s`,
      ratio: ratioOf(ours.cpuS, reference.cpuS),
      goal: '≤ 1.5×',
      met: ours.cpuS <= 1.5 * reference.cpuS,
      ratioLine: 'core ÷ bare client',
    },
  ];
}
