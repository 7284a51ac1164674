/** The tables and the method, printed and written as this benchmark's section of docs/benchmarks.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig, type Options } from 'prettier';
import { ratio, saveHeadline } from '../headline';
import { machineLine, writeSection } from '../report';
import { RESPONSE_HZ, type SpeechQuality, type ToneQuality } from './analysis';
import type { CpuUse } from './chromium';
import { f1, f2, label, signed, table } from './format';
import { recommendation } from './recommendation';
import {
  aliases,
  ALIAS_GOAL_DB,
  cpuMeans,
  MAIN_SOURCE,
  SNR_GOAL_DB,
  speechOf,
  windowOf,
  type Results,
} from './results';

const SECTION = 'capture-chromium';
const REPORT = 'docs/benchmarks.md';

function probeTable(results: Results): string {
  const seen = new Set<number>();
  const rows = results.probes
    .filter(({ fileRate }) => !seen.has(fileRate) && seen.add(fileRate))
    .sort((a, b) => a.fileRate - b.fileRate)
    .map(({ fileRate, probe }) => [
      `${fileRate} Hz`,
      `${probe.trackSettings.sampleRate ?? '—'} Hz`,
      `${probe.deliveredRate ?? '—'} Hz`,
      probe.deliveredFrames ?? '—',
      probe.trackSettings.channelCount ?? '—',
      `${probe.defaultContextRate} Hz`,
    ]);
  return table(
    [
      'file',
      'track `getSettings().sampleRate`',
      'delivered (`AudioData.sampleRate`)',
      'frames per AudioData',
      'channels',
      'default AudioContext',
    ],
    rows,
  );
}

/** A capture's slips and dropouts, or "none". */
function losses(s: SpeechQuality): string {
  const parts = [
    ...s.slips.map((slip) => `slip ${signed(slip.samples, 0)} samples at ${f2(slip.atSeconds)} s`),
    ...s.dropouts.map((d) => `${d.ms.toFixed(0)} ms of zeros at ${f2(d.atSeconds)} s`),
  ];
  return parts.length === 0 ? 'none' : parts.join(', ');
}

/** The largest difference between a variant's two rounds on the main source (Web Audio threads). */
function roundSpread(results: Results): number {
  const spreads = ['reference', 'reference-16k', 'A', 'B'].map((variant) => {
    const use = results.rows
      .filter((r) => r.source === MAIN_SOURCE && r.variant === variant)
      .map((r) => r.cpu.webAudio);
    return Math.max(...use) - Math.min(...use);
  });
  return Math.max(...spreads);
}

/** Which captures lost audio: a sentence for the report. */
function lossSummary(results: Results): string {
  const speech = results.rows.filter((r) => r.speech);
  const count = (variant: string) => {
    const rows = speech.filter((r) => r.variant === variant);
    const lossy = rows.filter((r) => r.speech!.slips.length + r.speech!.dropouts.length > 0);
    return `${lossy.length} of ${rows.length} ${variant} captures`;
  };
  const slips = speech.flatMap((r) => r.speech!.slips);
  const dropouts = speech.flatMap((r) => r.speech!.dropouts);
  if (slips.length + dropouts.length === 0) return 'No capture lost audio (no slips, no dropouts).';
  const lastEnd = Math.max(...dropouts.map((d) => d.atSeconds + d.ms / 1000));
  const where =
    slips.length === 0 && lastEnd < 0.5
      ? `, every time as zeros in place within the first ${(lastEnd * 1000).toFixed(0)} ms of the file, i.e. as the stream started`
      : '';
  return `Audio was lost in ${count('A')} and ${count('B')} (speech; the table names each loss)${where}. The quality figures leave such stretches out; for the app it means the first moments of a recording can be lost.`;
}

function speechTable(results: Results): string {
  const rows = results.rows
    .filter((r) => r.speech)
    .map((r) => {
      const s = r.speech!;
      return [
        r.source,
        r.round,
        label(r.variant),
        f1(s.snrInteger),
        f1(s.snrBest),
        f1(s.snrWorstSecond),
        f1(s.snrBestBand),
        f1(s.snrEqualizedBand),
        s.responseDb.map((db) => signed(db, 2)).join(' / '),
        f2(s.lag + s.fraction),
        losses(s),
        f1(s.seconds),
        s.snrBest >= SNR_GOAL_DB ? 'yes' : 'no',
      ];
    });
  return table(
    [
      'source file',
      'round',
      'candidate',
      'SNR, integer lag (dB)',
      'SNR, best lag + gain (dB)',
      'worst 1 s (dB)',
      'SNR ≤ 7 kHz (dB)',
      '≤ 7 kHz after linear EQ (dB)',
      `response re sox at ${RESPONSE_HZ.map((hz) => hz / 1000).join(' / ')} kHz (dB)`,
      'best lag (16 kHz samples)',
      'audio lost (slips, dropouts)',
      'seconds compared',
      `≥ ${SNR_GOAL_DB} dB`,
    ],
    rows,
  );
}

function toneTable(results: Results): string {
  const cells = (name: string, candidate: string, t: ToneQuality) => [
    name,
    candidate,
    f1(t.aliasDbfs),
    f1(t.aliasDbTone),
    f1(t.totalDbTone),
    signed(t.markerGainDb, 2),
    t.aliasDbTone <= ALIAS_GOAL_DB ? 'yes' : 'no',
  ];
  const rows = results.rows.filter((r) => r.tone).map((r) => cells(r.source, label(r.variant), r.tone!));
  for (const [source, quality] of Object.entries(results.toneReferences)) {
    rows.push(cells(source, 'sox `rate -v` (the reference itself)', quality));
  }
  return table(
    [
      'source file',
      'candidate',
      '6 kHz (alias) dBFS',
      '6 kHz re input tone (dB)',
      'all output during the tone, re tone (dB)',
      '1 kHz marker gain (dB)',
      `≥ ${-ALIAS_GOAL_DB} dB down`,
    ],
    rows,
  );
}

function cpuTable(results: Results): string {
  const rows = results.rows
    .filter((r) => r.kind === 'speech')
    .map((r) => [
      r.source,
      r.round,
      label(r.variant),
      `${r.contextRate} Hz`,
      f2(r.cpu.renderer),
      f2(r.cpu.webAudio),
      f2(r.cpu.audioService),
      f2(r.cpu.all),
      f1(r.windowSeconds),
    ]);
  return table(
    [
      'source file',
      'round',
      'variant',
      'context',
      'renderer, all threads',
      'renderer, Web Audio threads',
      'audio service',
      'all Chromium processes',
      'window (s)',
    ],
    rows,
  );
}

function cpuSummaryTable(means: Record<string, CpuUse>): string {
  const ref = means.reference!;
  const rows = (['reference', 'reference-16k', 'A', 'B'] as const).map((variant) => {
    const m = means[variant]!;
    return [
      label(variant),
      f2(m.renderer),
      variant === 'reference' ? '—' : signed(m.renderer - ref.renderer, 2),
      variant === 'reference' ? '—' : `${f2(m.renderer / ref.renderer)}×`,
      f2(m.webAudio),
      variant === 'reference' ? '—' : signed(m.webAudio - ref.webAudio, 2),
      f2(m.all),
    ];
  });
  return table(
    [
      'variant',
      'renderer (% of a core)',
      'over reference (points)',
      'ratio to reference',
      'Web Audio threads',
      'over reference (points)',
      'all Chromium processes',
    ],
    rows,
  );
}

export async function report(results: Results): Promise<void> {
  const means = cpuMeans(results);
  const [a, b] = [speechOf(results, 'A'), speechOf(results, 'B')];
  const probe = results.probes[0]!.probe;
  const earliest = Math.min(...results.rows.map((r) => r.speech?.lag ?? r.tone?.lag ?? 0));
  const missed =
    earliest >= 0
      ? 'no capture opened after the file had started'
      : `a capture opened at most ${f1((-earliest / 16_000) * 1000)} ms after the file had started`;
  const tones = results.rows.filter((r) => r.tone && r.variant === 'A').map((r) => r.source);
  const toneFiles = `${tones.map((t) => t.replace('tone ', '')).join(' / ')} file`;
  const toneSox = tones.map((t) => f1(results.toneReferences[t]!.aliasDbTone)).join(' / ');
  const markdown = `
## Capture in Chromium: which resampler

${machineLine()}. Wall time of the whole script: ${Math.round(results.wallSeconds)} s.

The capture must turn the microphone into 16 kHz mono. **A**: run the AudioContext at 16 kHz, so
Chromium's Web Audio resamples the microphone and our Resampler is a copy. **B**: run the context
at Chromium's default rate and resample in the capture worklet with our Kaiser polyphase Resampler.
Both run the app's worklet (\`src/renderer/audio/worklet/capture-processor.ts\`) unchanged.

**Speech against sox \`rate -v\` (best lag and gain; goal ≥ ${SNR_GOAL_DB} dB): A ${f1(a.snrBest)} dB, B ${f1(b.snrBest)} dB;
below 7 kHz once each filter's response is allowed for: A ${f1(a.snrEqualizedBand)} dB, B ${f1(b.snrEqualizedBand)} dB.
10 kHz tone at its 6 kHz alias, ${toneFiles} (goal ≥ ${-ALIAS_GOAL_DB} dB down): A ${aliases(results, 'A').map(f1).join(' / ')} dB,
B ${aliases(results, 'B').map(f1).join(' / ')} dB, sox itself ${toneSox} dB.
CPU, % of one core, mean of two ${windowOf(results, MAIN_SOURCE)}-s rounds: the renderer's Web Audio threads: reference ${f2(means.reference!.webAudio)},
A ${f2(means.A!.webAudio)}, B ${f2(means.B!.webAudio)}; the whole renderer: ${f2(means.reference!.renderer)}, ${f2(means.A!.renderer)}, ${f2(means.B!.renderer)}.**

${recommendation(results, means)}

### What the fake microphone delivers

Chromium's fake device (\`--use-file-for-fake-audio-capture\`) does not deliver the file's rate: for
every file it converts the file to the input device's parameters, here ${probe.deliveredRate ?? probe.trackSettings.sampleRate} Hz,
${probe.trackSettings.channelCount ?? '?'} channels, in ${probe.deliveredFrames ?? '?'}-frame buffers (read with
\`MediaStreamTrackProcessor\`; the track's settings say the same). So here a 48 kHz file reaches
Web Audio at 44.1 kHz already resampled by Chromium's audio service, and **both candidates
resample 44.1 kHz to 16 kHz**: A with Web Audio's resampler, B with ours (the default context is
also 44.1 kHz, so B's context takes the device's samples unconverted). A 48 kHz laptop
microphone, where A would resample 3:1, could not be reproduced with the fake device. The 48 kHz
files still test the 10 kHz tone (it passes the 48 → 44.1 kHz step and aliases to 6 kHz either
way), with the fake device's own conversion in front of both candidates.

${probeTable(results)}

### Speech

${speechTable(results)}

${lossSummary(results)}

### 10 kHz tone (−6 dBFS)

${toneTable(results)}

### CPU

Means over the two rounds on ${MAIN_SOURCE} (% of one core; the reference is the cost of having
the microphone open at all):

${cpuSummaryTable(means)}

Every speech capture:

${cpuTable(results)}

### How it was measured

- **Harness**: \`bench/capture-chromium/harness\` (\`index.html\` and \`page.mts\`), built with
  Vite's \`build()\` into a temp dir and served from http://127.0.0.1 (a secure context, as
  getUserMedia and AudioWorklet need). The worklet is imported as
  \`../../../src/renderer/audio/worklet/capture-processor.ts?worker&url\`: Vite bundles it and its
  imports into one file (\`${results.worklet.fileName}\`, ${results.worklet.format === 'IIFE' ? 'an IIFE: a script with no imports left' : 'an ES module'})
  and returns its URL, which \`audioWorklet.addModule()\` loads. (The dev server hands out
  \`capture-processor.ts?worker_file&type=module\` instead, an ES module with its imports, which
  \`addModule()\` loads too.)
- **Browser**: Debian Chromium via Playwright, one launch per source file, with the project's
  flags (\`e2e/support/chromium.ts\`) plus \`--use-fake-ui-for-media-stream\`,
  \`--use-fake-device-for-media-stream\` and \`--use-file-for-fake-audio-capture=<file>%noloop\`;
  headless, with Playwright's \`--mute-audio\` removed (the app does not mute); no sound card, so
  output goes to Chromium's fake output device.
- **Each capture**: \`new AudioContext()\` (16 kHz for A), \`addModule\`, \`getUserMedia\` with
  echo cancellation, noise suppression and AGC off and one channel, MediaStreamSource → the
  worklet node (\`numberOfOutputs: 0\`, \`channelCount: 1\`, explicit). The page copies each
  chunk's 1,600 samples and transfers the buffer back (\`release\`). The references route the
  MediaStreamSource through a muted GainNode to the destination instead: a node connected to
  nothing is not rendered. Each capture opens a new stream, so the file plays from its start
  (${missed}). The CPU window starts 0.5 s after opening and lasts
  ${windowOf(results, MAIN_SOURCE)} s (${MAIN_SOURCE}), ${windowOf(results, 'speech 48 kHz')} s (speech 48 kHz, quality
  only) or the tone file's length. Each browser first runs an unmeasured
  2-s capture (a fresh renderer compiles the page's code on its first one); the second round runs
  the variants in reverse order.
- **Sources** (\`sox -D\`, no dither, so every run builds the same bytes): the four espeak-ng turns
  of bench/resampler.ts (22,050 Hz), made 44.1 and 48 kHz 16-bit by \`rate -v\`; and 0.3 s
  silence, 0.5 s of 1 kHz (a marker to align on), 0.5 s silence, 3 s of 10 kHz, 0.5 s silence,
  both tones −6 dBFS with 10 ms fades, at 44.1 and 48 kHz.
- **Quality**: each capture against \`sox <file> -r 16000 rate -v\` (float). Integer lag from the
  FFT cross-correlation, then again for each second of the file: where the lag changes, the
  capture path dropped or inserted audio (a "slip"); where the capture is exact zeros for 2 ms or
  more while the file has sound (above −60 dBFS), it lost audio in place (a "dropout"). The
  figures cover the longest stretch with neither (the seconds around a slip left out), less
  0.1 s at each end (${f1(a.seconds)} s of speech for the figures above). "Best" adds the fractional lag (golden-section search, band-limited shift) and the
  least-squares gain, so a resampler's delay is not counted as error: the integer-lag figure
  depends on where within a 16 kHz sample the file happened to start, which changes from one
  capture to the next; "≤ 7 kHz" low-passes
  both signals first (below both filters' edges); "after linear EQ" is the Welch coherence
  estimate (1,024-point Hann segments) of the error no linear filter explains — aliasing, noise,
  glitches — and "response" is the cross- over the auto-spectrum within ±250 Hz. Tone: the
  amplitude at 6 kHz (Hann-windowed DFT, the peak within ±25 Hz) while the tone plays, 0.1 s in
  from its edges; "all output" is the RMS of everything then. In an undithered 16-bit file the
  tone's quantization error is periodic: in the 48 kHz file it repeats every 24 samples, so it
  has lines every 2 kHz, 6 kHz among them (see sox's own row).
- **CPU**: utime + stime from \`/proc/<pid>/stat\` of every process under the browser,
  classified by \`--type\` (renderer; the utility process running \`audio.mojom.AudioService\`,
  which reads the file; the rest), and from \`/proc/<pid>/task\` the renderer's Web Audio
  threads: \`Realtime AudioWorklet\` (Web Audio renders there, worklet included, when there is a
  worklet), \`AudioOutputDevice\` and \`AudioInputDevice\`. 10 ms clock ticks: 0.05 %
  resolution over ${windowOf(results, MAIN_SOURCE)} s. This process only sleeps during a window. Other work shared the machine
  (load average ${f2(results.loadAverage.start)} at the start, ${f2(results.loadAverage.end)} at the end), and a variant's two
  rounds differ by up to ${f2(roundSpread(results))} points on the Web Audio threads.

Run: \`node --import tsx bench/capture-chromium/main.ts\`.`;
  const options = { ...(await resolveConfig(REPORT)), parser: 'markdown' };
  const formatted = await format(markdown, options);
  console.log(formatted);
  writeSection(SECTION, formatted);
  await prettifySection(options);
  saveHeadline(SECTION, [
    {
      metric:
        "Chromium's own 16 kHz resampling (A, what the app uses): SNR against sox on speech (higher is better)",
      ours: `${f1(a.snrBest)} dB`,
      reference: `our worklet resampler (B) ${f1(b.snrBest)} dB`,
      goal: `≥ ${SNR_GOAL_DB} dB`,
      met: a.snrBest >= SNR_GOAL_DB,
    },
    {
      metric: 'the same below 7 kHz, each filter response allowed for (higher is better)',
      ours: `${f1(a.snrEqualizedBand)} dB`,
      reference: `B ${f1(b.snrEqualizedBand)} dB`,
    },
    {
      metric: "capture's Web Audio threads, % of a core, A (lower is better)",
      ours: `${f2(means.A!.webAudio)} %`,
      reference: `B ${f2(means.B!.webAudio)} %; microphone only ${f2(means.reference!.webAudio)} %`,
      ratio: ratio(means.A!.webAudio, means.B!.webAudio),
    },
  ]);
}

/**
 * Runs Prettier over this benchmark's block of docs/benchmarks.md again, markers included, so
 * `prettier --check .` passes: writeSection() puts no blank line after the start marker, which
 * Prettier wants. Other sections are left exactly as they are.
 */
async function prettifySection(options: Options): Promise<void> {
  const text = readFileSync(REPORT, 'utf8');
  const start = text.indexOf(`<!-- bench:${SECTION} -->`);
  const endMarker = `<!-- /bench:${SECTION} -->`;
  const end = text.indexOf(endMarker, start) + endMarker.length;
  if (start < 0 || end < endMarker.length) throw new Error(`no ${SECTION} section in ${REPORT}`);
  const block = (await format(text.slice(start, end), options)).trimEnd();
  writeFileSync(REPORT, text.slice(0, start) + block + text.slice(end));
}
