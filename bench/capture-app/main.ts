/**
 * What recording costs in the app itself: browser mode with Chromium's fake microphone playing
 * the committed conversation (looped), the renderer's CPU while the visit screen sits idle
 * (reference, same run) against while it records — the capture graph, the worklet, Silero on every
 * chunk, the chunk channel and the recording screen's 10 updates a second. Also the app core's
 * (main process's) CPU, which receives the chunks and streams them to the built-in sandbox.
 *
 *   node --import tsx bench/capture-app/main.ts
 */
import { chromium, type Page } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startHostProcess } from '../../e2e/support/browser-host-process';
import { CHROMIUM_FLAGS, chromiumExecutable, fakeMicrophoneFlags } from '../../e2e/support/chromium';
import { TICKS_PER_SECOND, cpuPercent, processTimes, type CpuUse } from '../capture-chromium/chromium';
import { ratio, saveHeadline } from '../headline';
import { machineLine, writeSection } from '../report';

const WINDOW_S = 20;
const SETTLE_MS = 5_000;
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const WAV = resolve('e2e/fixtures/conversation.wav');

interface Round {
  idle: CpuUse & { core: number };
  recording: CpuUse & { core: number };
  chunks: number;
  /** The renderer's busiest threads while recording, % of one core. */
  threads: (readonly [string, number])[];
}

/** utime + stime of one process, in clock ticks. */
function processTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** The Chromium process Playwright started (a child of this process). */
function browserPid(before: Set<number>): number {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || before.has(Number(name))) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && /chrom/i.test(comm)) return Number(name);
    } catch {
      // exited while we looked
    }
  }
  throw new Error('could not find the Chromium process Playwright started');
}

const allPids = () =>
  new Set(
    readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number),
  );

/** CPU ticks per renderer thread name (Linux cuts names at 15 characters). */
function rendererThreads(browser: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const p of processTimes(browser).filter((q) => q.role === 'renderer')) {
    for (const tid of readdirSync(`/proc/${p.pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${p.pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        byName.set(name, (byName.get(name) ?? 0) + Number(fields[11]) + Number(fields[12]));
      } catch {
        // thread ended while we looked
      }
    }
  }
  return byName;
}

async function measure(browser: number, host: number, page: Page, count: () => number) {
  const before = processTimes(browser);
  const threadsBefore = rendererThreads(browser);
  const hostBefore = processTicks(host);
  const chunksBefore = count();
  await page.waitForTimeout(WINDOW_S * 1_000);
  const threads = [...rendererThreads(browser)]
    .map(
      ([name, ticks]) =>
        [name, (100 * (ticks - (threadsBefore.get(name) ?? 0))) / TICKS_PER_SECOND / WINDOW_S] as const,
    )
    .filter(([, pct]) => pct > 0.2)
    .sort((a, b) => b[1] - a[1]);
  console.log(
    'renderer threads (% of one core):',
    threads.map(([n, p]) => `${n} ${p.toFixed(1)}`).join(', '),
  );
  const used = cpuPercent(before, processTimes(browser), WINDOW_S);
  const core = (100 * (processTicks(host) - hostBefore)) / TICKS_PER_SECOND / WINDOW_S;
  return { use: { ...used, core }, chunks: count() - chunksBefore, threads };
}

async function round(): Promise<Round> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scribe-bench-capture-'));
  const host = await startHostProcess(dataDir);
  const executablePath = chromiumExecutable();
  if (!executablePath) throw new Error('no Chromium: install Debian chromium or set CHROMIUM_PATH');
  const before = allPids();
  const browser = await chromium.launch({
    executablePath,
    // Looped (no %noloop): the visit plays for as long as the window lasts.
    args: [...CHROMIUM_FLAGS, ...fakeMicrophoneFlags(WAV, { loop: true })],
  });
  try {
    const pid = browserPid(before);
    const page = await browser.newPage();
    let chunks = 0;
    page.on('websocket', (socket) =>
      socket.on('framesent', ({ payload }) => {
        if (typeof payload !== 'string') chunks++;
      }),
    );
    await page.goto(host.launchUrl);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Visit' }).waitFor();
    // Let the page settle before the reference window.
    await page.waitForTimeout(SETTLE_MS);
    const idle = await measure(pid, host.pid, page, () => chunks);
    await page.getByRole('button', { name: 'Start recording' }).click();
    await page
      .getByTestId('recorder-state')
      .filter({ hasText: /^Recording/ })
      .waitFor();
    await page.waitForTimeout(SETTLE_MS);
    const recording = await measure(pid, host.pid, page, () => chunks);
    await page.getByRole('button', { name: 'End visit' }).click();
    return { idle: idle.use, recording: recording.use, chunks: recording.chunks, threads: recording.threads };
  } finally {
    await browser.close();
    await host.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const fixed = (n: number, digits = 2) => n.toFixed(digits);
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

async function main(): Promise<void> {
  const started = Date.now();
  const rounds: Round[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    rounds.push(await round());
    console.log(`round ${k + 1}:`, JSON.stringify(rounds.at(-1)));
  }
  const row = (label: string, pick: (u: CpuUse & { core: number }) => number) => {
    const idle = rounds.map((r) => pick(r.idle));
    const rec = rounds.map((r) => pick(r.recording));
    const delta = rounds.map((r) => pick(r.recording) - pick(r.idle));
    return `| ${label} | ${idle.map((v) => fixed(v)).join(' / ')} | ${rec.map((v) => fixed(v)).join(' / ')} | ${delta.map((v) => fixed(v)).join(' / ')} | ${fixed(mean(delta))} |`;
  };
  const rendererDelta = mean(rounds.map((r) => r.recording.renderer - r.idle.renderer));
  const markdown = `## Capture in the app: what recording costs

${machineLine()}. Wall time of the whole script: ${Math.round((Date.now() - started) / 1_000)} s.

Browser mode (\`out/main/browser.js\`, the built renderer in Chromium) with the fake microphone
playing \`e2e/fixtures/conversation.wav\` in a loop. Each round opens the app, saves the first-run
screen, waits ${SETTLE_MS / 1_000} s on the visit screen, then measures
${WINDOW_S} s **idle on the visit screen** (the reference, same run) and ${WINDOW_S} s **recording** (after
${SETTLE_MS / 1_000} s to settle). CPU is utime + stime from \`/proc\`, as % of one core; "Web Audio threads"
are the renderer's audio threads (Chromium's 16 kHz resampling and the capture worklet); the
renderer total adds the main thread (Silero on every chunk, the chunk header and send, the level
meter and recorder state redrawn ten times a second). The app core is the Node process that
receives the chunks and streams them to the built-in sandbox it hosts. Chunks sent per window:
${rounds.map((r) => r.chunks).join(' / ')} (${WINDOW_S * 10} expected).

| process (% of one core) | idle, per round | recording, per round | recording − idle, per round | mean cost of recording |
| --- | --- | --- | --- | --- |
${row("renderer's Web Audio threads", (u) => u.webAudio)}
${row('renderer, all threads', (u) => u.renderer)}
${row('audio service (the fake device)', (u) => u.audioService)}
${row('app core (main process)', (u) => u.core)}

The renderer's threads while recording (Linux names, cut at 15 characters; \`chromium\` is the
main thread, where Silero runs): ${rounds.map((r, k) => `round ${k + 1}: ${r.threads.map(([n, p]) => `${n} ${fixed(p, 1)}`).join(', ')}`).join('; ')}.

**Capture + VAD in the renderer: ${fixed(rendererDelta)} % of one core** (goal ≤ 3 %${rendererDelta <= 3 ? ', met' : ', **not met**'}).
`;
  console.log(markdown);
  writeSection('capture-app', markdown);
  const averageOf = (pick: (r: Round) => number) =>
    rounds.reduce((sum, r) => sum + pick(r), 0) / rounds.length;
  const coreIdle = averageOf((r) => r.idle.core);
  const coreRecording = averageOf((r) => r.recording.core);
  saveHeadline('capture-app', [
    {
      metric: 'capture + VAD in the renderer, % of a core over idle (lower is better)',
      ours: `${fixed(rendererDelta)} %`,
      reference: `idle visit screen ${fixed(averageOf((r) => r.idle.renderer))} %`,
      goal: '≤ 3 %',
      met: rendererDelta <= 3,
    },
    {
      metric: 'app core (main process) while recording at 1×, % of a core (lower is better)',
      ours: `${fixed(coreRecording)} %`,
      reference: `idle ${fixed(coreIdle)} %`,
      ratio: ratio(coreRecording, coreIdle),
    },
  ]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
