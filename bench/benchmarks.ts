/**
 * Every benchmark `npm run bench` runs, in order, with the section of docs/benchmarks.md it
 * rewrites. A new benchmark script is added here; its section then appears in the report. Each
 * tracks a product number; a study whose decision is taken is written up in docs/benchmarks.md and
 * its script retired (issue 15). The whole run must stay under 8 minutes on 2 cores: the arguments
 * below trim the longest.
 */
export interface Benchmark {
  /** The section's marker name in docs/benchmarks.md (`<!-- bench:NAME -->`). */
  section: string;
  title: string;
  /** Node options before the script (tsx, and --expose-gc for heap figures). */
  node: string[];
  script: string;
  args?: string[];
}

const TSX = ['--import', 'tsx'];
const bench = (section: string, title: string, script: string, args?: string[]): Benchmark => ({
  section,
  title,
  node: TSX,
  script,
  ...(args ? { args } : {}),
});

export const BENCHMARKS: Benchmark[] = [
  bench('capture-app', 'Capture in the app: what recording costs', 'bench/capture-app/main.ts'),
  {
    ...bench(
      'core-encounter',
      'Core: a 60-minute encounter through the contract',
      'bench/core-encounter/main.ts',
    ),
    node: ['--expose-gc', ...TSX],
    // Half a minute of jitter at 1× (300 gaps) is plenty for p99, and keeps the run under 8 min.
    args: ['--jitter-seconds', '30'],
  },
  bench('vad-chromium', 'Voice detection in Chromium', 'bench/vad-chromium/main.ts'),
  bench('auto-pause', 'Auto-pause: speech missing at the service', 'bench/auto-pause/main.ts'),
  bench(
    'results-latency',
    'Results: from the service finishing to the note on screen',
    'bench/results-latency/main.ts',
  ),
  bench('stream-proof', 'Stream: proof of receipt without ACK', 'bench/stream-proof.ts'),
];
