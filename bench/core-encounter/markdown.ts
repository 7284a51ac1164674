/** The numbers of one run → the core-encounter section of docs/benchmarks.md. */
import { ratio as ratioOf, type HeadlineRow } from '../headline';
import { machineLine } from '../report';
import { CHUNK_MS, CHUNKS_PER_MINUTE, MB } from './constants';
import type { CoreRun } from './core-client';
import type { HeapTrace, Memory } from './heap';
import type { Jitter } from './jitter';
import { JITTER_SECONDS, MINUTES, SPEED } from './options';
import { timelineCounts, type SandboxSummary } from './processes';
import type { ReferenceRun } from './reference-client';
import { quietRuns } from './visit';

export interface Measurements {
  /** The visit replayed at SPEED×. */
  plan: Uint8Array;
  ours: CoreRun;
  reference: ReferenceRun;
  oursAtService: SandboxSummary;
  referenceAtService: SandboxSummary;
  oursJitter: Jitter;
  referenceJitterResult: Jitter;
  /** Wall time of the whole script, s. */
  totalS: number;
}

const fixed = (n: number, digits = 2) => n.toFixed(digits);
const ratio = (ours: number, reference: number) =>
  Math.abs(reference) < 0.05 ? '—' : `${(ours / reference).toFixed(1)}×`;
const listCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => `${key} ×${n}`)
    .join(', ') || 'none';

export function encounterMarkdown({
  plan,
  ours,
  reference,
  oursAtService,
  referenceAtService,
  oursJitter,
  referenceJitterResult,
  totalS,
}: Measurements): string {
  const chunks = plan.length;
  const speechShare = plan.reduce((sum, s) => sum + s, 0) / plan.length;
  type Kind = keyof Memory;
  const growth = (h: HeapTrace, kind: Kind) => h.end[kind] - h.start[kind];
  const peak = (h: HeapTrace, kind: Kind) => Math.max(...h.minutes.map((m) => m[kind])) - h.start[kind];
  const oursHeap = ours.heap as HeapTrace;
  const heapGoal = growth(oursHeap, 'heapMb') <= 5;
  const jitterGoal = oursJitter.p99 <= 30;
  const everyFive = (h: HeapTrace, kind: Kind) =>
    h.minutes
      .map((m, i) => ({ minute: i + 2, mb: m[kind] }))
      .filter(({ minute }) => minute % 5 === 0)
      .map(({ mb }) => fixed(mb - h.start[kind], 1))
      .join(', ');
  const memoryRow = (label: string, of: (h: HeapTrace) => number, goal = '— | —') =>
    `| ${label} | ${ratio(of(oursHeap), of(reference.heap))} | ${fixed(of(oursHeap))} | ${fixed(of(reference.heap))} | ${goal} |`;
  const jitterRow = (p: 'p50' | 'p99', goal = '— | —') =>
    `| send jitter ${p} at 1× (ms) | ${ratio(oursJitter[p], referenceJitterResult[p])} | ${fixed(oursJitter[p])} | ${fixed(referenceJitterResult[p])} | ${goal} |`;
  // Per-chunk retention shows as a slope: heap from the middle of the visit to its last minute.
  const secondHalf = (h: HeapTrace) => {
    const middle = h.minutes[Math.floor(h.minutes.length / 2) - 1] ?? h.start;
    const last = h.minutes.at(-1) ?? h.start;
    const chunksBetween = (h.minutes.length - Math.floor(h.minutes.length / 2)) * CHUNKS_PER_MINUTE;
    const mb = last.heapMb - middle.heapMb;
    return `${mb >= 0 ? '+' : ''}${fixed(mb)} MB (${fixed((mb * MB) / chunksBetween, 0)} bytes per chunk)`;
  };
  const bufferSwing =
    Math.max(...oursHeap.minutes.map((m) => m.buffersMb)) -
    Math.min(...oursHeap.minutes.map((m) => m.buffersMb));
  const sameAudio = oursAtService.pcm_sha256 === referenceAtService.pcm_sha256;
  const tokenRefreshes = (ours.logs['info auth: signed in to the service'] ?? 0) - 1;
  const warnings = Object.fromEntries(Object.entries(ours.logs).filter(([key]) => !key.startsWith('info')));
  const streamCloses = Object.fromEntries(
    Object.entries(ours.logs)
      .filter(([key]) => key.startsWith('info stream: closed'))
      .map(([key, n]) => [key.replace('info stream: closed ', ''), n]),
  );
  const oursTimeline = timelineCounts(oursAtService, ['PAUSE', 'RESUME', 'KEEP_ALIVE', 'close:4001']);
  const referenceTimeline = timelineCounts(referenceAtService, [
    'PAUSE',
    'RESUME',
    'KEEP_ALIVE',
    'close:4001',
  ]);

  return `## Core: a ${MINUTES}-minute encounter through the contract

${machineLine()}. Wall time of the whole script: ${fixed(totalS, 0)} s.

| measure | ours / reference | ours (core) | reference (bare \`ws\` client) | goal | met |
|---|---:|---:|---:|---|---|
${memoryRow('heap growth over the visit (MB)', (h) => growth(h, 'heapMb'), `≤ 5 MB | ${heapGoal ? 'yes' : '**no**'}`)}
${memoryRow('highest per-minute heap above start (MB)', (h) => peak(h, 'heapMb'))}
${memoryRow('ArrayBuffer growth over the visit (MB)', (h) => growth(h, 'buffersMb'))}
${memoryRow('highest per-minute ArrayBuffers above start (MB)', (h) => peak(h, 'buffersMb'))}
${jitterRow('p50')}
${jitterRow('p99', `≤ 30 ms | ${jitterGoal ? 'yes' : '**no**'}`)}
| CPU time over the ${SPEED}× replay (s) | ${ratio(ours.cpuS, reference.cpuS)} | ${fixed(ours.cpuS, 1)} | ${fixed(reference.cpuS, 1)} | — | — |

**Heap.** The visit: ${MINUTES} min of 100 ms chunks (${chunks.toLocaleString('en')}), ${fixed(100 * speechShare, 0)} %
speech by the VAD flag, turns with pauses and ${quietRuns(plan)} stretches of ≥ 4 s quiet (deterministic PRNG);
chunk audio reused from 16 precomputed buffers. Played at ${SPEED}× (a chunk every ${fixed(CHUNK_MS / SPEED, 0)} ms of wall
clock) as binary chunk messages through the core's chunk channel (\`acceptChunk\`), against the sandbox in its own process at
\`--time-scale ${fixed(1 / SPEED)}\`. The core runs on a clock ${SPEED}× faster than the wall (its \`Clock\` port), so
its timers keep their meaning in audio time: auto-pause after 4 s of quiet, KEEP_ALIVE every 2 s,
the 4× drain cap. \`heapUsed\` after two forced full GCs (\`--expose-gc\`): start = after sign-in
and the first minute of audio; end = after End, once \`results.progress\` said done (recorder
ended, stream disposed, the core still up with the results held, as between visits); samples after
every minute of audio in between. \`arrayBuffers\` likewise: V8 keeps typed arrays over 64 bytes
off its heap, so audio the process holds shows there, not in heapUsed. Above start at minutes 5,
10, … (MB): heap ours ${everyFive(oursHeap, 'heapMb')}; reference ${everyFive(reference.heap, 'heapMb')}.
ArrayBuffers ours ${everyFive(oursHeap, 'buffersMb')}; reference ${everyFive(reference.heap, 'buffersMb')}. Reference, in the same run and at the same time (its own
process, same sandbox): a bare \`ws\` client sending the same frames (the recorder's pause policy
copied: PAUSE after 4 s of quiet, KEEP_ALIVE every 2 s, RESUME with 600 ms pre-roll; resume from the
first ACK after a reconnect) with no core. Heap over the second half of the visit: ours
${secondHalf(oursHeap)}, reference ${secondHalf(reference.heap)}.${
    bufferSwing > 1
      ? ` Our ArrayBuffers swing by ${fixed(bufferSwing, 1)} MB between samples: the in-memory audio log
(src/main/core/stream/audio-log.ts) frees acknowledged chunks only once more than 1,024 of them
(3.3 MB) are released; once the results are in, the core lets go of the ended encounter's recorder and log.`
      : ''
  }

- Ours: replay ${fixed(ours.wallMs / 1000, 0)} s wall (latest chunk ${fixed(ours.maxLagMs, 0)} ms behind schedule), results ${ours.status} ${fixed(ours.resultsAfterMs / 1000, 1)} s
  after End (${ours.summarySections} note sections, ${ours.transcriptEntries} transcript entries); auto-pauses: ${listCounts(ours.pauses)};
  the service saw ${listCounts(oursTimeline)} over ${oursAtService.connections} stream connection(s); stream closes
  by code: ${listCounts(streamCloses)}; service-token refreshes: ${tokenRefreshes} (the core reads the sandbox's scaled
  token lifetime, ${fixed(60 / SPEED, 0)} min, on its ${SPEED}× clock, so it refreshes about every ${fixed((0.85 * 3_600) / SPEED / SPEED, 1)} s of wall clock; the
  sandbox still closes a stream with 4001 when the token it was opened with ends, and the core
  resumes on a new connection); warnings and errors logged:
  ${listCounts(warnings)}; chunks refused by the core: ${ours.refusedChunks}.
- Events from the core over the visit: ${listCounts(ours.events)}.
- Reference: replay ${fixed(reference.wallMs / 1000, 0)} s wall (${fixed(reference.maxLagMs, 0)} ms behind at worst), results ${reference.status};
  the service saw ${listCounts(referenceTimeline)} over ${reference.connections} connection(s).
- Audio at the service: ours ${oursAtService.received_bytes.toLocaleString('en')} bytes, reference ${referenceAtService.received_bytes.toLocaleString('en')} bytes;
  ${sameAudio ? 'identical (same SHA-256): the reference sent the same frames' : 'not identical (SHA-256 differs)'}.

**Jitter.** ${JITTER_SECONDS} s of audio at real time (no stretch of quiet long enough to pause, so every chunk is
sent), the chunks played on a 100 ms timer that catches up after a late tick, against a second
sandbox at \`--time-scale 1\`. Measured outside the sending process: a TCP proxy in its own process
in front of the sandbox reads the client's WebSocket frames as they pass and timestamps each AUDIO
frame when it has fully arrived; jitter = |interval between successive AUDIO frames − 100 ms|.
Ours: the core (systemClock, default timings) from the first chunk after the stream opened,
${oursJitter.frames} frames, worst ${fixed(oursJitter.max, 1)} ms. Reference, at the same time in its own process:
a bare \`ws\` client on the same timer sending each frame straight into its socket,
${referenceJitterResult.frames} frames, worst ${fixed(referenceJitterResult.max, 1)} ms.

Run: \`node --expose-gc --import tsx bench/core-encounter/main.ts\` (about 5 minutes; \`--minutes\`,
\`--speed\` and \`--jitter-seconds\` change the visit).`;
}

/** The rows "At a glance" leads with: heap, send jitter and CPU, each against the bare client. */
export function encounterHeadline({
  ours,
  reference,
  oursJitter,
  referenceJitterResult,
}: Measurements): HeadlineRow[] {
  const growth = (h: HeapTrace) => h.end.heapMb - h.start.heapMb;
  const oursGrowth = growth(ours.heap as HeapTrace);
  const referenceGrowth = growth(reference.heap);
  return [
    {
      metric: `heap growth over a 60-minute visit replayed at ${SPEED}× (lower is better)`,
      ours: `${fixed(oursGrowth)} MB`,
      reference: `bare client ${fixed(referenceGrowth)} MB`,
      ratio: ratioOf(oursGrowth, referenceGrowth),
      goal: '≤ 5 MB',
      met: oursGrowth <= 5,
    },
    {
      metric: 'send jitter at 1×, p99 (lower is better)',
      ours: `${fixed(oursJitter.p99)} ms`,
      reference: `bare client ${fixed(referenceJitterResult.p99)} ms`,
      ratio: ratioOf(oursJitter.p99, referenceJitterResult.p99),
      goal: '≤ 30 ms',
      met: oursJitter.p99 <= 30,
    },
    {
      metric: `CPU time over the ${SPEED}× replay (lower is better)`,
      ours: `${fixed(ours.cpuS, 1)} s`,
      reference: `bare client ${fixed(reference.cpuS, 1)} s`,
      ratio: ratioOf(ours.cpuS, reference.cpuS),
    },
  ];
}
