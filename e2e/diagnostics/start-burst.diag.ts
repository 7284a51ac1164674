import { readdirSync, readFileSync } from 'node:fs';
import { decodeAudioChunk } from '../../src/shared/contract/audio-chunk';
import { alignSource, readConversation } from '../support/audio-analysis';
import { expect, test } from '../support/fixtures';
import { tryTheDemo } from '../support/workspace';

/**
 * A diagnostic, not a test (issue 36; docs/reliability.md, "The CPU of a visit's first seconds"):
 * who takes the CPU in the first three seconds after Start. A demo visit of the conversation; the
 * CPU time of every thread of every Chromium and Node process is read from /proc before Start and
 * 0.5, 1, 1.5, 2 and 3 s after, and printed per span, busiest first. It also prints the exact
 * zeros per second in what the page sent (Web Audio's fill for a microphone that did not deliver)
 * and how the first four turns line up with the file. START_AFTER_MS (8000) is the wait between the
 * Ready pane and Start: 0 presses Start while the window still warms its voice model. TRACE, a
 * comma-separated list of Chrome trace categories, adds the time of each renderer thread's trace
 * events in the first second (devtools.timeline is added, for the press; the wasm.TopTierCompilation that named the cause came from
 * `TRACE=v8,v8.wasm,disabled-by-default-v8.compile,toplevel`).
 *
 *   scripts/slow-machine.sh npx playwright test --config e2e/diagnostics/playwright.config.ts start-burst
 */
test.use({ fakeMicrophone: 'e2e/fixtures/conversation.wav' });
const conversation = readConversation(
  'e2e/fixtures/conversation.wav',
  'e2e/fixtures/conversation.turns.json',
);

/** CPU ticks (1/100 s) by process kind and thread name, summed over processes of a kind. */
type Ticks = Map<string, number>;

function processKind(pid: string): string | undefined {
  const words = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const line = words.join(' ');
  if (line.includes('chromium')) {
    const type = /--type=([\w-]+)/.exec(line)?.[1] ?? 'browser';
    const sub = /--utility-sub-type=([\w.]+)/.exec(line)?.[1]?.split('.').at(-2);
    return `chromium ${type}${sub ? ` ${sub}` : ''}`;
  }
  if (!line.includes('node')) return undefined;
  const script = words.slice(1).find((w) => w !== '' && !w.startsWith('-'));
  return `node ${script?.split('/').slice(-2).join('/') ?? ''}`;
}

function cpuTicks(): Ticks {
  const ticks: Ticks = new Map();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const kind = processKind(pid);
      if (!kind) continue;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const thread = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '#');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const key = `${kind} | ${thread}`;
        ticks.set(key, (ticks.get(key) ?? 0) + Number(fields[11]) + Number(fields[12]));
      }
    } catch {
      // The process or thread ended while it was read.
    }
  }
  return ticks;
}

function cpuBetween(before: Ticks, after: Ticks): [string, number][] {
  const rows: [string, number][] = [];
  for (const [key, value] of after) {
    const ms = (value - (before.get(key) ?? 0)) * 10;
    if (ms > 0) rows.push([key, ms]);
  }
  return rows.sort((a, b) => b[1] - a[1]);
}

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { message?: string } };
}

test('who takes the CPU in the first seconds after Start', async ({ scribe, browser }) => {
  test.setTimeout(120_000);
  const { page } = scribe;
  const sent: Int16Array[] = [];
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      if (typeof payload === 'string') return;
      const decoded = decodeAudioChunk(new Uint8Array(payload));
      if (decoded.ok) sent.push(new Int16Array(decoded.chunk.pcm.slice().buffer));
    }),
  );
  const tracing = process.env.TRACE ? await browser.newBrowserCDPSession() : undefined;
  const events: TraceEvent[] = [];
  if (tracing) {
    tracing.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
    await tracing.send('Tracing.start', {
      traceConfig: { includedCategories: [...process.env.TRACE!.split(','), 'devtools.timeline'] },
      transferMode: 'ReportEvents',
    });
  }
  await page.reload();
  await tryTheDemo(page);
  await page.waitForTimeout(Number(process.env.START_AFTER_MS ?? 8_000));

  const marks = [cpuTicks()];
  const pressed = Date.now();
  await page.evaluate(() => console.timeStamp('Start pressed'));
  await page.getByRole('button', { name: 'Start recording' }).click();
  const spans = [500, 1_000, 1_500, 2_000, 3_000];
  for (const at of spans) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, pressed + at - Date.now())));
    marks.push(cpuTicks());
  }
  spans.forEach((end, k) => {
    const rows = cpuBetween(marks[k]!, marks[k + 1]!);
    const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(`${[0, ...spans][k]! / 1_000}–${end / 1_000} s after Start: ${total} ms of CPU`);
    for (const [key, ms] of rows.slice(0, 8)) console.log(`  ${String(ms).padStart(5)} ms  ${key}`);
  });

  if (tracing) {
    const ended = new Promise((resolve) => tracing.once('Tracing.tracingComplete', resolve));
    await tracing.send('Tracing.end');
    await ended;
    const start = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === 'Start pressed');
    const threads = new Map(
      events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name ?? '?']),
    );
    const byName = new Map<string, number>();
    for (const e of events) {
      if (e.ph !== 'X' || !e.dur || !start || e.ts < start.ts || e.ts - start.ts > 1_000_000) continue;
      const key = `${threads.get(`${e.pid}:${e.tid}`) ?? '?'} | ${e.name}`;
      byName.set(key, (byName.get(key) ?? 0) + e.dur / 1_000);
    }
    console.log('trace events in the first second after Start (wall ms, nested events counted each):');
    for (const [key, ms] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 20))
      console.log(`  ${ms.toFixed(0).padStart(5)} ms  ${key}`);
  }

  await expect.poll(() => sent.length, { timeout: 60_000 }).toBeGreaterThan(130);
  const received = new Int16Array(sent.length * 1_600);
  sent.forEach((chunk, k) => received.set(chunk, k * 1_600));
  const zeros = [0, 1, 2, 3].map(
    (second) => received.subarray(second * 16_000, (second + 1) * 16_000).filter((v) => v === 0).length,
  );
  console.log(`exact zeros in each of the first four seconds sent: ${zeros.join(', ')}`);
  const turns = conversation.turns.slice(0, 4).map((turn) => {
    const window = { fromSample: (turn.startMs / 1_000) * 16_000, length: 32_000 };
    const { lag, correlation } = alignSource(conversation.samples, received, window, 3 * 16_000);
    return `${turn.startMs} ms: lag ${lag}, r ${correlation.toFixed(3)}`;
  });
  console.log(`the first four turns against the file: ${turns.join('; ')}`);
});
