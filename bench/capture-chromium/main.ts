/**
 * Capture in Chromium: which resampler turns the microphone into 16 kHz mono, measured in the
 * browser with the app's own capture worklet (src/renderer/audio/worklet/capture-processor.ts).
 *
 *   A: an AudioContext at 16 kHz: Chromium's Web Audio resamples the microphone, our Resampler
 *      is a copy;
 *   B: an AudioContext at Chromium's default rate: our Kaiser polyphase Resampler, in the worklet.
 *   reference (CPU only): the microphone open into a default-rate context, no worklet.
 *
 * Chromium plays WAV files as its fake microphone; each capture is compared with sox `rate -v`
 * of the same file (SNR, and the alias of a 10 kHz tone), and the browser's CPU time is read
 * from /proc over a fixed window.
 *
 * Run: node --import tsx bench/capture-chromium/main.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { speechQuality, toneQuality } from './analysis';
import { capture, probe } from './capture';
import { launchWithMicrophone, type Launched } from './chromium';
import { buildHarness, serve, type Server } from './harness';
import type { CaptureConfig, ProbeResult } from './harness/api';
import { report } from './markdown';
import type { CaptureRow, Results } from './results';
import {
  fileRate,
  int16Base64ToFloat,
  soxReference,
  speech22k,
  speechAt,
  toneAt,
  TONE_LAYOUT,
} from './signals';

const VARIANTS = {
  /** The microphone open into a default-rate context, no worklet: the cost every capture pays. */
  reference: { worklet: false },
  /** The same in a 16 kHz context: what A pays before the worklet. */
  'reference-16k': { worklet: false, contextRate: 16_000 },
  A: { worklet: true, contextRate: 16_000 },
  B: { worklet: true },
} satisfies Record<string, CaptureConfig>;
type Variant = keyof typeof VARIANTS;

/** The CPU window of each speech capture. */
const SPEECH_SECONDS = 15;
const WARM_UP_SECONDS = 2;
/** Give up (and clean up) if a run takes this long: something is stuck. */
const DEADLINE_MS = 8 * 60_000;

interface Source {
  name: string;
  file: string;
  kind: 'speech' | 'tone';
  /** Rounds of captures; the second runs in reverse order so neither candidate always goes first. */
  rounds: Variant[][];
  seconds: number;
}

const started = Date.now();
const startLoad = loadavg()[0]!;
const dir = mkdtempSync(join(tmpdir(), 'bench-capture-chromium-'));
let server: Server | undefined;
let launched: Launched | undefined;

async function run(): Promise<Results> {
  // The worklet, bundled by Vite exactly as the app's renderer build would.
  const site = join(dir, 'site');
  const worklet = await buildHarness(site, join(dir, 'vite-cache'));
  server = await serve(site);

  const speech = speech22k(dir);
  const sources: Source[] = [
    {
      name: 'speech 44.1 kHz',
      file: speechAt(dir, speech, 44_100),
      kind: 'speech',
      rounds: [
        ['reference', 'reference-16k', 'A', 'B'],
        ['B', 'A', 'reference-16k', 'reference'],
      ],
      seconds: SPEECH_SECONDS,
    },
    // Quality only (its CPU figures are not in the means), so a shorter window keeps the run short.
    {
      name: 'speech 48 kHz',
      file: speechAt(dir, speech, 48_000),
      kind: 'speech',
      rounds: [['A', 'B']],
      seconds: 12,
    },
    {
      name: 'tone 44.1 kHz',
      file: toneAt(dir, 44_100),
      kind: 'tone',
      rounds: [['A', 'B']],
      seconds: TONE_LAYOUT.total,
    },
    {
      name: 'tone 48 kHz',
      file: toneAt(dir, 48_000),
      kind: 'tone',
      rounds: [['A', 'B']],
      seconds: TONE_LAYOUT.total,
    },
  ];
  // Files that are only probed: does the fake device deliver at the file's rate or its own?
  const probeOnly = [speech, speechAt(dir, speech, 16_000)];

  const probes: { fileRate: number; probe: ProbeResult }[] = [];
  for (const file of probeOnly) {
    launched = await launchWithMicrophone(file, server.url);
    probes.push({ fileRate: fileRate(file), probe: await probe(launched.page) });
    await closeBrowser();
  }

  const rows: CaptureRow[] = [];
  for (const source of sources) {
    console.log(`${source.name}: ${source.rounds.flat().join(', ')} (${source.seconds} s each)`);
    launched = await launchWithMicrophone(source.file, server.url);
    probes.push({ fileRate: fileRate(source.file), probe: await probe(launched.page) });
    // Unmeasured: the first capture in a fresh renderer also pays for compiling the page's code.
    await capture(launched, VARIANTS.B, WARM_UP_SECONDS);
    const reference = soxReference(source.file);
    for (const [round, variants] of source.rounds.entries()) {
      for (const variant of variants) {
        const config: CaptureConfig = VARIANTS[variant];
        const result = await capture(launched, config, source.seconds);
        const samples = int16Base64ToFloat(result.result.samplesBase64);
        rows.push({
          source: source.name,
          kind: source.kind,
          variant,
          round: round + 1,
          contextRate: result.started.contextRate,
          chunks: result.result.chunks,
          inputSeconds: result.result.lastEndTime,
          contextSeconds: result.result.contextTime,
          cpu: result.cpu,
          windowSeconds: result.windowSeconds,
          speech: config.worklet && source.kind === 'speech' ? speechQuality(reference, samples) : undefined,
          tone: config.worklet && source.kind === 'tone' ? toneQuality(reference, samples) : undefined,
        });
        console.log(`  ${variant} round ${round + 1}: ${describe(rows.at(-1)!)}`);
      }
    }
    await closeBrowser();
  }
  const toneReferences: Results['toneReferences'] = {};
  for (const source of sources.filter((s) => s.kind === 'tone')) {
    const reference = soxReference(source.file);
    toneReferences[source.name] = toneQuality(reference, reference);
  }
  return {
    rows,
    probes,
    worklet,
    toneReferences,
    wallSeconds: (Date.now() - started) / 1000,
    loadAverage: { start: startLoad, end: loadavg()[0]! },
  };
}

function describe(row: CaptureRow): string {
  const { renderer, webAudio, audioService, all } = row.cpu;
  const cpu = `CPU renderer ${renderer.toFixed(2)} % (Web Audio threads ${webAudio.toFixed(2)} %), audio service ${audioService.toFixed(2)} %, all ${all.toFixed(2)} %`;
  if (row.speech) {
    const { snrBest, seconds, lag, slips, dropouts } = row.speech;
    return `SNR ${snrBest.toFixed(1)} dB over ${seconds.toFixed(1)} s (lag ${lag}, ${slips.length} slips, ${dropouts.length} dropouts); ${cpu}`;
  }
  if (row.tone) return `alias ${row.tone.aliasDbTone.toFixed(1)} dB re tone; ${cpu}`;
  return cpu;
}

async function closeBrowser(): Promise<void> {
  const current = launched;
  launched = undefined;
  await current?.browser.close();
}

async function cleanUp(): Promise<void> {
  await closeBrowser().catch(() => undefined);
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
}

// Ctrl-C and kill: close the browsers and remove the temp dir before going.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`bench/capture-chromium: ${signal}, cleaning up`);
    void cleanUp().finally(() => process.exit(130));
  });
}

const deadline = setTimeout(() => {
  console.error(`bench/capture-chromium: no result after ${DEADLINE_MS / 60_000} min; giving up`);
  void cleanUp().finally(() => process.exit(1));
}, DEADLINE_MS);

try {
  const results = await run();
  await report(results);
  await cleanUp();
  clearTimeout(deadline);
} catch (error) {
  console.error('bench/capture-chromium failed:', error);
  await cleanUp();
  process.exit(1);
}
