/**
 * Every benchmark `npm run bench` runs, in order, with the section of docs/benchmarks.md it
 * rewrites (`<!-- bench:NAME -->`). Each tracks a product number; a study whose decision is taken is
 * written up in docs/benchmarks.md and its script retired (issue 15). The whole run must stay under
 * 8 minutes on 2 cores: the arguments below trim the longest.
 */
export interface Benchmark {
  section: string;
  title: string;
  /** Node options before the script (tsx, and --expose-gc for heap figures). */
  node: string[];
  script: string;
  args?: string[];
}

const TSX = ['--import', 'tsx'];
/** The script is bench/<section>/main.ts. */
const run = (section: string, title: string, args: string[] = []): Benchmark => ({
  ...{ section, title, node: TSX, script: `bench/${section}/main.ts` },
  ...(args.length > 0 ? { args } : {}),
});

export const BENCHMARKS: Benchmark[] = [
  run('capture-app', 'Capture in the app: what recording costs'),
  {
    // Half a minute of jitter at 1× (299 gaps) is plenty for p99; the visit stays 60 min at 20×.
    ...run('core-encounter', 'Core: a 60-minute encounter through the contract', ['--jitter-seconds', '30']),
    node: ['--expose-gc', ...TSX],
  },
  run('vad-chromium', 'Voice detection in Chromium'),
  run('auto-pause', 'Auto-pause: speech missing at the service'),
  // Two visits each way (not three): the two ways differ by 30×, and the budget is 8 minutes.
  run('results-latency', 'Results: from the service finishing to the note on screen', ['--visits', '2']),
  // Two trials of each fault (not five): every trial so far repeated 0 bytes.
  run('stream-proof', 'Stream: proof of receipt without ACK', ['--trials', '2']),
  // Three runs of pocketsphinx on a one-minute visit: about 15 s on 2 cores (issue 36).
  run('recognizer-speed', 'Recognizer speed: pocketsphinx on a one-minute visit'),
  // The note check (issue 38): recall and false flags on a generated corpus, and a 60-minute note's time (about 10 s).
  run('note-check', 'Note check: each value in the note against what was said'),
  // Play (issue 38): the press to the sound, warm and after restarts (about 1 minute).
  run('replay-latency', 'Play: from the press to the sound'),
];
