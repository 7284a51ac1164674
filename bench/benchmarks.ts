/**
 * Every benchmark `npm run bench` runs, in order, with the section of docs/benchmarks.md it
 * rewrites. A new benchmark script is added here; its section then appears in the report. The
 * whole run must stay under 15 minutes on 2 cores (issue 9): the arguments below trim the longest.
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

export const BENCHMARKS: Benchmark[] = [
  { section: 'resampler', title: 'Capture: resampling to 16 kHz', node: TSX, script: 'bench/resampler.ts' },
  {
    section: 'capture-chromium',
    title: 'Capture in Chromium: which resampler',
    node: TSX,
    script: 'bench/capture-chromium/main.ts',
  },
  {
    section: 'capture-app',
    title: 'Capture in the app: what recording costs',
    node: TSX,
    script: 'bench/capture-app/main.ts',
  },
  {
    section: 'core-encounter',
    title: 'Core: a 60-minute encounter through the contract',
    node: ['--expose-gc', ...TSX],
    script: 'bench/core-encounter/main.ts',
    // Half a minute of jitter at 1× (1,800 gaps) is plenty for p99, and keeps the run under 15 min.
    args: ['--jitter-seconds', '30'],
  },
  {
    section: 'vad-chromium',
    title: 'Voice detection in Chromium',
    node: TSX,
    script: 'bench/vad-chromium/main.ts',
  },
  {
    section: 'auto-pause',
    title: 'Auto-pause: speech missing at the service',
    node: TSX,
    script: 'bench/auto-pause/main.ts',
  },
  {
    section: 'results-latency',
    title: 'Results: from the service finishing to the note on screen',
    node: TSX,
    script: 'bench/results-latency/main.ts',
  },
  {
    section: 'app-startup',
    title: 'App: start-up, bundle and install size',
    node: TSX,
    script: 'bench/app-startup/main.ts',
  },
  {
    section: 'stream-proof',
    title: 'Stream: proof of receipt without ACK',
    node: TSX,
    script: 'bench/stream-proof.ts',
  },
  {
    section: 'sandbox-streams',
    title: 'Sandbox: concurrent real-time streams',
    node: TSX,
    script: 'bench/sandbox-streams.ts',
    // 5 s per step (50 chunks a stream) keeps the doubling steps inside the 15-minute budget.
    args: ['--seconds', '5'],
  },
];
