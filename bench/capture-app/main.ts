/**
 * What recording costs in the app: browser mode with the fake microphone playing the conversation
 * (looped); CPU of the renderer (and its threads), the audio service and the app core while the
 * visit screen sits idle (the reference) and while it records. The method is in docs/benchmarks.md.
 *
 *   npm run build && node --import tsx bench/capture-app/main.ts [--quick]   # --quick or ROUNDS=1: one round
 */
import type { Page } from '@playwright/test';
import { startVisit } from '../support/app-page';
import { startFloorServer } from './capture-floor';
import { snapshot, use, workletRenderer, type Use } from './process-cpu';
import {
  appPage,
  discardVisit,
  openLoopingCall,
  readClock,
  readyAfterTheNote,
  startTelehealthVisit,
} from './telehealth-leg';
import { CALL_TAB_TITLE } from '../../e2e/support/chromium';
import { machineLine, mean, ratio, saveHeadline, writeSection } from '../report';
import {
  CONVERSATION_WAV,
  QUICK,
  requireBuild,
  runBenchmark,
  startApp,
  startDetachedChromium,
} from '../support/run';

const WINDOW_S = 20;
const SETTLE_MS = 5_000;
/**
 * The first visit after a launch spends its first minute or so optimising the voice model's
 * WebAssembly (V8 compiles its hot functions again on the thread pool: 1.4 % of a core at 5–25 s,
 * 0.1–0.3 % after 60 s). That is paid once per launch, not per visit: it is measured as a window
 * of its own, and the recording window follows it, two loops of the conversation later (so it
 * holds the same stretch of the file as the window right after the start would).
 */
const WARM_UP_S = 80;
const ROUNDS = QUICK ? 1 : Number(process.env.ROUNDS ?? 2);
interface Round {
  /** The app's capture graph alone (capture-floor.ts), in its own browser just before the app. */
  floor: Use;
  /** Chunks the floor's worklet handed back in its window. */
  floorChunks: number;
  idle: Use;
  recording: Use;
  /** The visit's first WARM_UP_S after SETTLE_MS: the voice model's code is still being optimised. */
  warmUp: Use;
  /** The same recording with another tab in front: the page hidden (issue 40). */
  hidden: Use;
  /** The same recording with Playwright attached: what the harness itself costs. */
  attached: Use;
  /**
   * Issue 30's second source, after the first visit: a call tab plays in a loop and a visit in the
   * room records (one source), then a telehealth visit records the microphone and the call's sound
   * (two sources). The call plays in both, and in a window of its own with the visit screen
   * idle, their reference: the call tab's own cost (its page, the sound it plays) is in all three.
   */
  idleWithCall: Use;
  roomWithCall: Use;
  telehealth: Use;
  /** The pid of the app page's renderer (the others are the call tab's, and spares). */
  appRenderer: number;
  /** The visit's clock across the detached recording window, and the wall time between the reads. */
  clock: { counted: number; wall: number };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function measureFloor(url: string): Promise<{ floor: Use; floorChunks: number }> {
  // Launched as the app's browser is (below), so the floor is subtracted like for like.
  const chromium = await startDetachedChromium({
    wav: CONVERSATION_WAV,
    loop: true,
    callTab: CALL_TAB_TITLE,
  });
  const chunks = (page: Page) => page.evaluate(() => (globalThis as unknown as { chunks: number }).chunks);
  await chromium.drive(async (page) => {
    await page.goto(url);
    await page.waitForFunction(() => (globalThis as unknown as { chunks?: number }).chunks! > 0);
  });
  await sleep(SETTLE_MS);
  const before = await chromium.drive(chunks);
  // No app core beside the floor: pid 0 matches no process, so its `core` stays 0.
  const start = snapshot(chromium.pid, 0);
  await sleep(WINDOW_S * 1_000);
  const floor = use(start, snapshot(chromium.pid, 0), WINDOW_S);
  const floorChunks = (await chromium.drive(chunks)) - before;
  await chromium.close();
  return { floor, floorChunks };
}

async function round(floorUrl: string): Promise<Round> {
  const { floor, floorChunks } = await measureFloor(floorUrl);
  const app = await startApp();
  // Looped (no %noloop): the visit plays for as long as the window lasts. With the call tab's flags
  // (issue 30: the browser shares that tab's sound, so it runs without the fake UI, and unmuted).
  const chromium = await startDetachedChromium({
    wav: CONVERSATION_WAV,
    loop: true,
    callTab: CALL_TAB_TITLE,
  });
  const measure = async (wait: () => Promise<void>, seconds = WINDOW_S) => {
    const before = snapshot(chromium.pid, app.host.pid);
    await wait();
    return use(before, snapshot(chromium.pid, app.host.pid), seconds);
  };
  await chromium.drive(async (page) => {
    await page.goto(app.host.launchUrl);
    await page.getByRole('button', { name: 'Try the demo' }).click();
    await page.getByRole('heading', { name: 'Next visit' }).waitFor();
  });
  // Let the page settle (detached) before the reference window.
  await sleep(SETTLE_MS);
  const idle = await measure(() => sleep(WINDOW_S * 1_000));
  const clockAtStart = await chromium.drive(async (page) => {
    await startVisit(page);
    return readClock(page);
  });
  await sleep(SETTLE_MS);
  const warmUp = await measure(() => sleep(WARM_UP_S * 1_000), WARM_UP_S);
  const clockBefore = await chromium.drive(readClock);
  const recording = await measure(() => sleep(WINDOW_S * 1_000));
  // Issue 40: the clinician in the EHR, the window behind it. Another tab in front hides the page
  // (document.visibilityState 'hidden', checked after the window); the browser carries on detached.
  await chromium.drive(async (page) => {
    const other = await page.context().newPage();
    await other.bringToFront();
  });
  await sleep(SETTLE_MS);
  const hidden = await measure(() => sleep(WINDOW_S * 1_000));
  await chromium.drive(async (any) => {
    // Read before anything brings it to front.
    const origin = new URL(app.host.launchUrl).origin;
    const page = any
      .context()
      .pages()
      .find((candidate) => candidate.url().startsWith(origin))!;
    const state = await page.evaluate('document.visibilityState');
    if (state !== 'hidden')
      throw new Error(`the app's page stayed ${String(state)} with another tab in front`);
    for (const other of page.context().pages()) if (other !== page) await other.close();
    await page.bringToFront();
  });
  await sleep(SETTLE_MS);
  // The app page's renderer, found by its capture worklet (the call tab's renderer comes later).
  const appRenderer = workletRenderer(snapshot(chromium.pid, app.host.pid));
  if (appRenderer === undefined) throw new Error('no renderer runs the capture worklet while recording');
  const { clockAfter, attached } = await chromium.drive(async (page) => {
    const clockAfter = await readClock(page);
    const attached = await measure(() => page.waitForTimeout(WINDOW_S * 1_000));
    await page.getByRole('button', { name: 'End visit' }).click();
    return { clockAfter, attached };
  });
  // Two sources against one (issue 30), both with the call tab playing.
  const origin = new URL(app.host.launchUrl).origin;
  await chromium.drive(async (page) => {
    await readyAfterTheNote(page);
    await openLoopingCall(page);
  });
  await sleep(SETTLE_MS);
  const idleWithCall = await measure(() => sleep(WINDOW_S * 1_000));
  await chromium.drive(async (any) => startVisit(await appPage(any, origin)));
  await sleep(SETTLE_MS);
  const roomWithCall = await measure(() => sleep(WINDOW_S * 1_000));
  // Discarded, not ended: a note being made would run into the telehealth window.
  const telehealthStart = await chromium.drive(async (any) => {
    const page = await appPage(any, origin);
    await discardVisit(page);
    await startTelehealthVisit(page);
    return readClock(page);
  });
  await sleep(SETTLE_MS);
  const telehealth = await measure(() => sleep(WINDOW_S * 1_000));
  const telehealthEnd = await chromium.drive(async (any) => {
    const page = await appPage(any, origin);
    const clock = await readClock(page);
    await discardVisit(page);
    return clock;
  });
  await chromium.close();
  // A telehealth visit that stalled would look cheap, as a room one would.
  if (telehealthEnd.seconds - telehealthStart.seconds < WINDOW_S + SETTLE_MS / 1_000 - 2)
    throw new Error(
      `the telehealth visit's clock counted ${telehealthEnd.seconds - telehealthStart.seconds} s in ${((telehealthEnd.at - telehealthStart.at) / 1_000).toFixed(1)} s`,
    );
  await app.close();
  const counted = clockAfter.seconds - clockBefore.seconds;
  // A recording that stalled or paused would make its window look cheap: it must have run through.
  // Nor may the warm-up have been a wait for the microphone: a capture that began late would be
  // audio missing from the visit's start (and its window would look cheap). Said, not averaged in.
  const countedBefore = clockBefore.seconds - clockAtStart.seconds;
  const wallBefore = (clockBefore.at - clockAtStart.at) / 1_000;
  if (countedBefore < wallBefore - 2)
    throw new Error(
      `the visit's clock counted ${countedBefore} s in the ${wallBefore.toFixed(1)} s after Start: capture started late`,
    );
  if (counted < WINDOW_S - 1)
    throw new Error(`the visit's clock counted ${counted} s in a ${WINDOW_S} s window`);
  return {
    floor,
    floorChunks,
    idle,
    recording,
    warmUp,
    hidden,
    attached,
    idleWithCall,
    roomWithCall,
    telehealth,
    appRenderer,
    clock: { counted, wall: (clockAfter.at - clockBefore.at) / 1_000 },
  };
}

const fixed = (n: number, digits = 2) => n.toFixed(digits);
/** The renderer's threads that used more than 0.2 % of a core, busiest first. */
const busiest = (u: Use) => u.threads.filter(([, v]) => v > 0.2);
/** Each round's busiest renderer threads in one window, as `round 1: name 1.2, …; round 2: …`. */
const threadsPerRound = (rounds: Round[], pick: (r: Round) => Use) =>
  rounds
    .map(
      (r, k) =>
        `round ${k + 1}: ${busiest(pick(r))
          .map(([n, p]) => `${n} ${fixed(p, 1)}`)
          .join(', ')}`,
    )
    .join('; ');
/** % of a core of the renderer's threads named `name` in a window (0 if none worked). */
const threadUse = (u: Use, name: string) => u.threads.find(([n]) => n === name)?.[1] ?? 0;

runBenchmark('capture-app', 12 * 60_000, async () => {
  requireBuild();
  const started = Date.now();
  const rounds: Round[] = [];
  const { url: floorUrl } = await startFloorServer();
  for (let k = 0; k < ROUNDS; k++) {
    rounds.push(await round(floorUrl));
    console.log(`round ${k + 1}:`, JSON.stringify(rounds.at(-1)));
  }
  const row = (label: string, pick: (u: Use) => number, window = (r: Round) => r.recording) => {
    const list = (values: number[]) => values.map((v) => fixed(v)).join(' / ');
    const delta = rounds.map((r) => pick(window(r)) - pick(r.idle));
    const floor = rounds.map((r) => pick(r.floor) - pick(r.idle));
    return `| ${label} | ${list(rounds.map((r) => pick(r.idle)))} | ${list(rounds.map((r) => pick(window(r))))} | ${list(delta)} | ${fixed(mean(delta))} | ${list(floor)} |`;
  };
  const averageOf = (pick: (r: Round) => number) => mean(rounds.map(pick));
  const rendererDelta = averageOf((r) => r.recording.renderer - r.idle.renderer);
  const windowDelta = averageOf((r) => r.recording.window - r.idle.window);
  const floorDelta = averageOf((r) => r.floor.window - r.idle.window);
  // Issue 30: two sources against one, each over the visit screen idle with the call playing.
  // What a source passes through: the page's renderer (the capture graph, the page) and the audio
  // service (the microphone, the tab's capture). The browser process is not: see the text below.
  const appRendererOf = (r: Round) => (u: Use) =>
    u.renderers.find(([pid]) => pid === r.appRenderer)?.[1] ?? 0;
  const capturing = (r: Round) => (u: Use) => appRendererOf(r)(u) + u.audioService;
  const oneSource = averageOf((r) => capturing(r)(r.roomWithCall) - capturing(r)(r.idleWithCall));
  const twoSources = averageOf((r) => capturing(r)(r.telehealth) - capturing(r)(r.idleWithCall));
  const sourcesRow = (label: string, pickOf: (r: Round) => (u: Use) => number) => {
    const list = (values: number[]) => values.map((v) => fixed(v)).join(' / ');
    const one = rounds.map((r) => pickOf(r)(r.roomWithCall) - pickOf(r)(r.idleWithCall));
    const two = rounds.map((r) => pickOf(r)(r.telehealth) - pickOf(r)(r.idleWithCall));
    return `| ${label} | ${list(one)} | ${list(two)} | ${list(two.map((t, k) => t - one[k]!))} | ${ratio(mean(two), mean(one)) ?? '—'}× |`;
  };
  const hiddenDelta = averageOf((r) => r.hidden.window - r.idle.window);
  const inFront = ratio(windowDelta, floorDelta);
  const behind = ratio(hiddenDelta, floorDelta);
  console.log(`ratio, window in front: ${inFront ?? '—'}×`);
  console.log(`ratio, window hidden: ${behind ?? '—'}×`);
  await writeSection(
    'capture-app',
    `## Capture in the app: what recording costs

${machineLine()}. Wall time of the whole script: ${Math.round((Date.now() - started) / 1_000)} s.

- ratio, window in front: ${inFront ?? '—'}× (goal ≤ 1.5×): recording in the window's processes over idle, ${fixed(windowDelta)} %, against the capture graph alone over idle, ${fixed(floorDelta)} %
- ratio, window hidden: ${behind ?? '—'}× (goal ≤ 1.2×): the same with another tab in front of the page (hidden), ${fixed(hiddenDelta)} %

Windows of ${WINDOW_S} s with no debugger attached, idle on the visit screen (the reference) and
recording, after ${SETTLE_MS / 1_000} s to settle; the visit's clock counted ${rounds.map((r) => `${r.clock.counted} s in ${fixed(r.clock.wall, 1)} s`).join(' / ')}
between its reads on either side of the recording and hidden windows (the reads take a connection each).
Every browser here runs with sound, as the desktop app does (since issue 30; below the table).

| process (% of one core) | idle, per round | recording, per round | recording − idle, per round | mean cost of recording | the capture graph alone − idle, per round |
| --- | --- | --- | --- | --- | --- |
${row("renderer's Web Audio threads", (u) => u.webAudio)}
${row('renderer, all threads', (u) => u.renderer)}
${row('GPU process (compositing)', (u) => u.gpu)}
${row('browser process', (u) => u.browser)}
${row('network service', (u) => u.network)}
${row('other helper processes', (u) => u.otherProcesses)}
${row("**the window's processes together**", (u) => u.window)}
${row(
  "the window's processes, the page hidden",
  (u) => u.window,
  (r) => r.hidden,
)}
${row('audio service (the fake device; apart)', (u) => u.audioService)}
${row('app core (main process)', (u) => u.core)}

**The capture graph alone** (\`bench/capture-app/capture-floor.ts\`: the app's graph and built worklet in
a page of its own, nothing else; ${rounds.map((r) => r.floorChunks).join(' / ')} chunks in its windows) measured just
before each round's app, in a browser of its own: its threads ${threadsPerRound(rounds, (r) => r.floor)}.
The app's own work above it: **${fixed(windowDelta - floorDelta)} %** of a core (recording ${fixed(windowDelta)} %, the graph alone ${fixed(floorDelta)} %).

**The first visit's warm-up** (${SETTLE_MS / 1_000}–${SETTLE_MS / 1_000 + WARM_UP_S} s after Start, before the recording window): the window's processes
${rounds.map((r) => fixed(r.warmUp.window - r.idle.window)).join(' / ')} % of a core over idle, of which the renderer's thread pool (V8 optimising the
voice model's WebAssembly) ${rounds.map((r) => fixed(threadUse(r.warmUp, 'ThreadPoolForeg'))).join(' / ')} % (in the recording window after it: ${rounds.map((r) => fixed(threadUse(r.recording, 'ThreadPoolForeg'))).join(' / ')} %).

The renderer's threads while recording (Linux names, cut at 15 characters; \`chromium\` is the
main thread; \`DedicatedWorker\` the voice model's worker, where Silero runs): ${threadsPerRound(rounds, (r) => r.recording)}.

The same recording with Playwright attached (the harness's cost, not the app's), the window's
processes over idle: ${rounds.map((r) => fixed(r.attached.window - r.idle.window)).join(' / ')} (the browser process ${rounds.map((r) => fixed(r.attached.browser - r.idle.browser)).join(' / ')}, the renderer ${rounds.map((r) => fixed(r.attached.renderer - r.idle.renderer)).join(' / ')}).

**Two sources against one** (issue 30), in the same browser after the first visit, a call tab
playing the telehealth fixture's patient in a loop: a visit in the room (the microphone alone) and
then a telehealth visit (the microphone and the call tab's sound, mixed), each over the visit
screen idle with the call playing (${rounds.map((r) => fixed(r.idleWithCall.window - r.idle.window)).join(' / ')} % over idle without it:
the call tab's page and the sound it plays), % of one core:

| process | in the room, per round | telehealth, per round | the second source, per round | telehealth ÷ room |
| --- | --- | --- | --- | --- |
${sourcesRow("the app's renderer, all threads", appRendererOf)}
${sourcesRow('audio service', () => (u) => u.audioService)}
${sourcesRow("**the app's renderer and the audio service**", capturing)}
${sourcesRow("the call tab's renderer (and spares)", (r) => (u) => u.renderer - appRendererOf(r)(u))}
${sourcesRow('browser process', () => (u) => u.browser)}
${sourcesRow("the window's processes together", () => (u) => u.window)}

The renderers' threads in the telehealth window (the call tab's among them): ${threadsPerRound(rounds, (r) => r.telehealth)}.
The measure is the app's renderer and the audio service, where both sources pass: the browser
process and the call tab's renderer worked less while the tab's sound was being captured than while
the tab only played it (Chromium's handling of the test's call tab, not the app's work: in the
desktop app the call is another program's sound), which makes the window's processes together
look cheaper with two sources than with one.

**Recording in the window's processes together: ${fixed(windowDelta)} % of one core over idle** (goal ≤ 5 %${windowDelta <= 5 ? ', met' : ', **not met**'}; the renderer alone ${fixed(rendererDelta)} %).

Run: \`node --import tsx bench/capture-app/main.ts\` (build first; \`--quick\`: one round).`,
  );
  const coreIdle = averageOf((r) => r.idle.core);
  const coreRecording = averageOf((r) => r.recording.core);
  saveHeadline('capture-app', [
    {
      metric:
        "recording, the window's processes over idle ÷ the capture graph alone over idle (lower is better)",
      ours: `${fixed(windowDelta)} %`,
      reference: `the capture graph alone ${fixed(floorDelta)} %`,
      ratio: inFront,
      goal: '≤ 1.5×',
      met: inFront !== undefined && inFront <= 1.5,
      ratioLine: 'ratio, window in front',
    },
    {
      metric:
        "recording with the window hidden (another tab in front), the window's processes over idle ÷ the graph alone (lower is better)",
      ours: `${fixed(hiddenDelta)} %`,
      reference: `the capture graph alone ${fixed(floorDelta)} %`,
      ratio: behind,
      goal: '≤ 1.2×',
      met: behind !== undefined && behind <= 1.2,
      ratioLine: 'ratio, window hidden',
    },
    {
      metric: "recording in the window's processes, % of a core over idle (lower is better)",
      ours: `${fixed(windowDelta)} %`,
      reference: `the capture graph alone ${fixed(floorDelta)} %`,
      ratio: ratio(windowDelta, floorDelta),
      goal: '≤ 5 %',
      met: windowDelta <= 5,
    },
    {
      metric: 'of which the renderer (capture, VAD, the page), % of a core over idle (lower is better)',
      ours: `${fixed(rendererDelta)} %`,
      reference: `idle visit screen ${fixed(averageOf((r) => r.idle.renderer))} %`,
    },
    {
      metric:
        "a telehealth visit (microphone and call mixed), the app's renderer and the audio service, % of a core over idle with the call playing (lower is better)",
      ours: `${fixed(twoSources)} %`,
      reference: `in the room ${fixed(oneSource)} %`,
      ratio: ratio(twoSources, oneSource),
    },
    {
      metric: 'app core (main process) while recording at 1×, % of a core (lower is better)',
      ours: `${fixed(coreRecording)} %`,
      reference: `idle ${fixed(coreIdle)} %`,
      ratio: ratio(coreRecording, coreIdle),
    },
  ]);
});
