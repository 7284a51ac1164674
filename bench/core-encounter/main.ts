/**
 * A 60-minute encounter replayed at 20× through the main-process core against the sandbox (heap
 * growth, CPU), and a real-time run timed by a TCP proxy in its own process (send jitter), each
 * against a bare `ws` client in its own process at the same time. The method is in
 * docs/benchmarks.md. Roles (`--role ...`) are this file run again.
 *
 *   npm run build && node --expose-gc --import tsx bench/core-encounter/main.ts [--minutes 60] [--speed 20] [--jitter-seconds 60]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { saveHeadline, writeSection } from '../report';
import { onCleanup, requireBuild, runBenchmark, startSandbox } from '../support/run';
import { referenceJitter, referenceReplay, runCore, type ReferenceRun } from './clients';
import { encounterHeadline, encounterMarkdown } from './markdown';
import { jitter, runProxy } from './proxy';
import { CHUNKS_PER_MINUTE, JITTER_SEED, memoryAfterGc, sleep, VISIT_SEED, visitPlan } from './visit';

const { values } = parseArgs({
  options: {
    role: { type: 'string', default: 'main' },
    minutes: { type: 'string', default: '60' },
    speed: { type: 'string', default: '20' },
    'jitter-seconds': { type: 'string', default: '60' },
    url: { type: 'string' },
    target: { type: 'string' },
  },
});
const MINUTES = Number(values.minutes);
const SPEED = Number(values.speed);
const JITTER_SECONDS = Number(values['jitter-seconds']);
const visit = () => visitPlan(Math.round(MINUTES * CHUNKS_PER_MINUTE), VISIT_SEED, true);
const jitterVisit = () => visitPlan(Math.round(JITTER_SECONDS * 10), JITTER_SEED, false);

/** Runs this file again as `--role role`, with the same visit parameters. */
function startRole(role: string, args: string[], exposeGc = false): ChildProcess {
  const node = [...(exposeGc ? ['--expose-gc'] : []), '--import', 'tsx', fileURLToPath(import.meta.url)];
  const visitArgs = ['--minutes', MINUTES, '--speed', SPEED, '--jitter-seconds', JITTER_SECONDS].map(String);
  const child = spawn(process.execPath, [...node, '--role', role, ...visitArgs, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5_000)]);
  });
  return child;
}

const lines = (child: ChildProcess, onLine: (line: string) => void) =>
  createInterface({ input: child.stdout! }).on('line', onLine);

function firstLine(child: ChildProcess, prefix: string): Promise<string> {
  return new Promise((resolve, reject) => {
    lines(child, (line) => line.startsWith(prefix) && resolve(line.slice(prefix.length)));
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before printing ${prefix}`)));
  });
}

const roleResult = async <T>(child: ChildProcess): Promise<T> =>
  JSON.parse(await firstLine(child, 'RESULT ')) as T;

/** Both runs, ours and the reference side by side; what the report is made of. */
async function measure() {
  memoryAfterGc(); // fails at once without --expose-gc
  const started = performance.now();
  const plan = visit();
  const [fast, real] = await Promise.all([
    startSandbox({ timeScale: 1 / SPEED, asr: 'energy' }),
    startSandbox({ timeScale: 1, asr: 'energy' }),
  ]);
  const proxy = startRole('proxy', ['--target', new URL(real.url).host]);
  const proxyUrl = `http://127.0.0.1:${await firstLine(proxy, 'PROXY_PORT=')}`;
  // The proxy prints `A <session> <ms>` for each AUDIO frame as it fully arrives.
  const audioFrames = new Map<string, number[]>();
  lines(proxy, (line) => {
    const [kind, session, at] = line.split(' ');
    if (kind !== 'A' || !session) return;
    audioFrames.set(session, [...(audioFrames.get(session) ?? []), Number(at)]);
  });

  // 1. The visit at SPEED×: the core here, the reference in its own process, at the same time.
  console.log(`replaying ${MINUTES} min at ${SPEED}× through the core and the reference…`);
  const [ours, reference] = await Promise.all([
    runCore(fast.url, plan, SPEED, { measureHeap: true, encounterId: 'benchvisit' }),
    roleResult<ReferenceRun>(startRole('reference-replay', ['--url', fast.url], true)),
  ]);
  const oursAtService = await fast.session(ours.sessionId);
  const referenceAtService = await fast.session(reference.sessionId);

  // 2. Send jitter at 1×: the core here and the reference in its own process, both through the proxy.
  console.log(`streaming ${JITTER_SECONDS} s at real time through the proxy…`);
  const [oursRealTime, referenceRealTime] = await Promise.all([
    runCore(proxyUrl, jitterVisit(), 1, { measureHeap: false, encounterId: 'benchjitter' }),
    roleResult<{ sessionId: string }>(startRole('reference-jitter', ['--url', proxyUrl])),
  ]);
  await sleep(300);
  return {
    plan,
    ours,
    reference,
    oursAtService,
    referenceAtService,
    oursJitter: jitter(audioFrames.get(oursRealTime.sessionId) ?? []),
    referenceJitter: jitter(audioFrames.get(referenceRealTime.sessionId) ?? []),
    totalS: (performance.now() - started) / 1000,
    minutes: MINUTES,
    speed: SPEED,
    jitterSeconds: JITTER_SECONDS,
  };
}
export type Measurements = Awaited<ReturnType<typeof measure>>;

switch (values.role) {
  case 'main':
    runBenchmark('core-encounter', 15 * 60_000, async () => {
      requireBuild();
      const measured = await measure();
      await writeSection('core-encounter', encounterMarkdown(measured));
      saveHeadline('core-encounter', encounterHeadline(measured));
      console.log(
        `core ÷ bare client: ${(measured.ours.cpuS / measured.reference.cpuS).toFixed(2)}× (CPU time, goal ≤ 1.5×)`,
      );
    });
    break;
  case 'proxy':
    await runProxy(values.target!);
    break;
  case 'reference-replay':
    console.log(`RESULT ${JSON.stringify(await referenceReplay(values.url!, visit(), SPEED))}`);
    process.exit(0);
    break;
  case 'reference-jitter':
    console.log(`RESULT ${JSON.stringify(await referenceJitter(values.url!, jitterVisit()))}`);
    process.exit(0);
    break;
  default:
    throw new Error(`unknown role ${values.role}`);
}
