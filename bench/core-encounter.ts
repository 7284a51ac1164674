/**
 * A 60-minute encounter replayed at 20× through the main-process core against the sandbox: how much
 * the main process's heap grows over the visit, and (in a separate run at real time) how evenly the
 * core's AUDIO frames leave its socket. Goals from the issue: ≤ 5 MB heap growth over the visit,
 * send-jitter p99 ≤ 30 ms at 1×.
 *
 * Processes: two sandboxes (`sandbox/main.ts`, one at --time-scale 0.05 for the 20× replay, one at
 * 1 for the real-time run), a tiny TCP proxy in front of the real-time sandbox that timestamps every
 * WebSocket frame from client to server, and the reference clients — all started from this file
 * (`--role ...`). The core runs in this process, driven only through its contract router.
 *
 * Run: node --expose-gc --import tsx bench/core-encounter.ts [--minutes 60] [--speed 20] [--jitter-seconds 60]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { ServiceClient, syntheticSpeech } from '../sandbox/test-support/service-client';
import type { RecorderView } from '../src/shared/contract';
import type { AppCore } from '../src/main/core/app-core';
import { createJsonFileStorage } from '../src/main/core/json-file-storage';
import { silentLogger, systemClock, type Clock, type Logger } from '../src/main/core/ports';
import { createMemorySecretBox } from '../src/main/core/secrets/secret-box';
import { machineLine, percentile, writeSection } from './report';

const { values } = parseArgs({
  options: {
    role: { type: 'string', default: 'main' },
    minutes: { type: 'string', default: '60' },
    speed: { type: 'string', default: '20' },
    'jitter-seconds': { type: 'string', default: '60' },
    url: { type: 'string' },
    target: { type: 'string' },
    /** Print only; leave docs/benchmarks.md alone (trial runs with other parameters). */
    'print-only': { type: 'boolean', default: false },
  },
});
const MINUTES = Number(values.minutes);
const SPEED = Number(values.speed);
const JITTER_SECONDS = Number(values['jitter-seconds']);
const SELF = fileURLToPath(import.meta.url);

const PARTNER = { partnerId: 'demo-bearer', token: 'sandbox-bearer-partner-token' };
const CONTEXT = { sections: ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS', 'PLAN'] };
const CHUNK_MS = 100;
const CHUNK_BYTES = 3_200;
const CHUNKS_PER_MINUTE = 60_000 / CHUNK_MS;
/** The recorder's defaults (DEFAULT_RECORDER_TIMING), which the reference client copies. */
const AUTO_PAUSE_AFTER_MS = 4_000;
const PRE_ROLL_CHUNKS = 6;
const KEEP_ALIVE_EVERY_MS = 2_000;
const MB = 1024 * 1024;

// ---- the visit ----------------------------------------------------------------------------------

/** A small deterministic PRNG (mulberry32), so every run replays the same visit. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The VAD's verdict per 100 ms chunk (1 = speech): turns of 1–4 bursts of speech (0.8–4 s) with
 * breaths between them, 0.3–2.5 s between turns, now and then 5–15 s of quiet (examining, typing)
 * and every 6–12 minutes 30–120 s without a word. Without `longSilences` nothing is quiet long
 * enough to auto-pause (the real-time run, where every chunk must go out).
 */
function visitPlan(chunks: number, seed: number, longSilences: boolean): Uint8Array {
  const random = prng(seed);
  const between = (loMs: number, hiMs: number) =>
    Math.max(1, Math.round((loMs + (hiMs - loMs) * random()) / 100));
  const plan = new Uint8Array(chunks);
  let at = 0;
  const run = (length: number, speech: boolean) => {
    const end = Math.min(chunks, at + length);
    if (speech) plan.fill(1, at, end);
    at = end;
  };
  let nextLong = longSilences ? between(4 * 60_000, 10 * 60_000) : Infinity;
  while (at < chunks) {
    const bursts = 1 + Math.floor(random() * 4);
    for (let b = 0; b < bursts; b++) {
      run(between(800, 4_000), true);
      if (b < bursts - 1) run(between(100, 600), false);
    }
    if (at >= nextLong) {
      run(between(30_000, 120_000), false);
      nextLong = at + between(6 * 60_000, 12 * 60_000);
    } else if (longSilences && random() < 0.06) run(between(5_000, 15_000), false);
    else run(between(300, 2_500), false);
  }
  return plan;
}

/** Runs of quiet at least as long as the auto-pause delay: each should pause the recorder once. */
function quietRuns(plan: Uint8Array): number {
  let runs = 0;
  let quiet = 0;
  for (const speech of plan) {
    quiet = speech ? 0 : quiet + CHUNK_MS;
    if (quiet === AUTO_PAUSE_AFTER_MS) runs++;
  }
  return runs;
}

// Chunk audio: 8 speech and 8 near-silent 100 ms buffers, computed once and reused in turn.
const VARIANTS = 8;
function slices(pcm: Buffer): Buffer[] {
  return Array.from({ length: VARIANTS }, (_, i) => pcm.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES));
}
const SPEECH_B64 = slices(syntheticSpeech([{ speechMs: VARIANTS * CHUNK_MS, silenceMs: 0 }])).map((b) =>
  b.toString('base64'),
);
const QUIET_B64 = slices(syntheticSpeech([{ speechMs: 0, silenceMs: VARIANTS * CHUNK_MS }], 7)).map((b) =>
  b.toString('base64'),
);
const chunkBase64 = (plan: Uint8Array, i: number): string =>
  (plan[i] ? SPEECH_B64 : QUIET_B64)[i % VARIANTS] as string;

// ---- small tools --------------------------------------------------------------------------------

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function forceGc(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) {
    console.error('Run with --expose-gc: node --expose-gc --import tsx bench/core-encounter.ts');
    process.exit(2);
  }
  return gc;
}

interface Memory {
  /** V8 heap in use (`heapUsed`), MB. */
  heapMb: number;
  /**
   * ArrayBuffers (`arrayBuffers`), MB: V8 keeps typed arrays over 64 bytes off its heap, so every
   * 100 ms of audio the process holds counts here, not in heapUsed.
   */
  buffersMb: number;
}

/** Memory after two full collections. */
function memoryAfterGc(): Memory {
  const gc = forceGc();
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heapMb: heapUsed / MB, buffersMb: arrayBuffers / MB };
}

interface HeapTrace {
  /** After sign-in and the first minute of audio. */
  start: Memory;
  /** After End, once the results are in and the stream is done. */
  end: Memory;
  /** After each further minute of audio. */
  minutes: Memory[];
}

/** The trace from the per-minute samples (the first is the start) and a sample taken now. */
async function traceFrom(samples: Memory[]): Promise<HeapTrace> {
  await sleep(100);
  const [start, ...minutes] = samples;
  return { start: start as Memory, minutes, end: memoryAfterGc() };
}

/**
 * Plays `count` chunks, one every `intervalMs` of wall clock, catching up at once after a late
 * timer (a replay must not stretch). Samples the heap after each minute of audio when asked.
 */
async function play(
  count: number,
  intervalMs: number,
  onChunk: (i: number) => void | Promise<void>,
  heap?: Memory[],
): Promise<{ wallMs: number; maxLagMs: number }> {
  const started = performance.now();
  let maxLagMs = 0;
  for (let i = 0; i < count; i++) {
    const due = started + i * intervalMs;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
    maxLagMs = Math.max(maxLagMs, performance.now() - due);
    await onChunk(i);
    if (heap && (i + 1) % CHUNKS_PER_MINUTE === 0) heap.push(memoryAfterGc());
  }
  return { wallMs: performance.now() - started, maxLagMs };
}

/** The core's clock `speed` times faster than the wall: its timers keep their meaning in audio time. */
function fastClock(speed: number): Clock {
  if (speed === 1) return systemClock;
  const wallStart = Date.now();
  const perfStart = performance.now();
  return {
    now: () => wallStart + (performance.now() - perfStart) * speed,
    every(ms, fn) {
      const timer = setInterval(fn, ms / speed);
      timer.unref?.();
      return () => clearInterval(timer);
    },
    after(ms, fn) {
      const timer = setTimeout(fn, ms / speed);
      return () => clearTimeout(timer);
    },
  };
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

function countInto(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

async function waitFor(what: string, test: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

// ---- the core, through its contract ------------------------------------------------------------

interface CoreRun {
  sessionId: string;
  heap?: HeapTrace;
  wallMs: number;
  maxLagMs: number;
  cpuS: number;
  /** End pressed → results.progress done, wall ms. */
  resultsAfterMs: number;
  status: string;
  summarySections: number;
  transcriptEntries: number;
  events: Record<string, number>;
  /** Entries into each recorder state; pauses by reason. */
  states: Record<string, number>;
  pauses: Record<string, number>;
  /** Log lines by level and message (stream closes by code). */
  logs: Record<string, number>;
  refusedChunks: number;
}

/** The pause reason behind the sentence the view carries (recorder-view.ts PAUSE_WORDS). */
function pauseCause(reason: string | undefined): string {
  if (reason?.includes('no one is speaking')) return 'no-speech';
  if (reason?.includes('microphone')) return 'mic-stopped';
  if (reason?.includes('long time')) return 'pause-limit';
  return reason ?? 'none';
}

function countingLogger(counts: Record<string, number>): Logger {
  const line = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    countInto(
      counts,
      message === 'stream: closed' ? `${level} ${message} (${String(fields?.code)})` : `${level} ${message}`,
    );
  return { info: line('info'), warn: line('warn'), error: line('error') };
}

async function runCore(
  baseUrl: string,
  plan: Uint8Array,
  speed: number,
  options: { measureHeap: boolean; encounterId: string },
): Promise<CoreRun> {
  // Imported here, not at the top: the reference and proxy processes run this file without the core.
  const { createAppCore } = await import('../src/main/core/app-core');
  const dir = await mkdtemp(join(tmpdir(), 'scribe-bench-core-'));
  const logs: Record<string, number> = {};
  const core: AppCore = await createAppCore({
    settingsStorage: createJsonFileStorage(join(dir, 'settings.json'), silentLogger),
    secrets: createMemorySecretBox(),
    appInfo: {
      name: 'Ambient Scribe',
      version: '0',
      mode: 'browser',
      platform: 'linux',
      runtime: { node: process.versions.node },
      dataDirectory: dir,
    },
    log: countingLogger(logs),
    clock: fastClock(speed),
  });
  const events: Record<string, number> = {};
  const states: Record<string, number> = {};
  const pauses: Record<string, number> = {};
  let state = 'idle';
  let done: { status: string } | undefined;
  core.events.subscribe((event, payload) => {
    countInto(events, event);
    if (event === 'recorder.changed') {
      const view = payload as RecorderView;
      if (view.state !== state) {
        state = view.state;
        countInto(states, state);
        if (state === 'auto-paused') countInto(pauses, pauseCause(view.reason));
      }
    }
    if (event === 'results.progress' && (payload as { done: boolean }).done)
      done = payload as { status: string };
  });
  const call = async <T>(verb: string, payload?: unknown): Promise<T> => {
    const result = await core.router.dispatch(verb, payload);
    if (!result.ok) throw new Error(`${verb}: ${result.error.message}`);
    return result.value as T;
  };

  await call('settings.set', {
    service: { kind: 'url', baseUrl },
    partnerId: PARTNER.partnerId,
    authModel: 'bearer',
    providerId: 'dr-bench',
    providerName: 'Dr Bench',
    providerOrgId: 'clinic-bench',
  });
  await call('secrets.setPartnerToken', { token: PARTNER.token });
  const auth = await call<{ signedIn: boolean }>('auth.signIn');
  if (!auth.signedIn) throw new Error('the core could not sign in to the sandbox');
  const view = await call<RecorderView>('encounter.start', {
    kind: 'ambient',
    encounterId: options.encounterId,
    context: CONTEXT,
  });
  const sessionId = view.sessionId as string;
  // At real time, start once the stream is open, so the first intervals measure sending, not the
  // upgrade. At 20× the microphone runs from the start, as it does in the app (the recorder's
  // 1 s capture watchdog is 50 ms of wall clock there).
  if (speed === 1) await waitFor('the stream to open', () => state === 'streaming', 10_000);

  const heap: Memory[] = [];
  const cpu = process.cpuUsage();
  let refusedChunks = 0;
  const played = await play(
    plan.length,
    CHUNK_MS / speed,
    async (seq) => {
      const result = await core.router.dispatch('recorder.chunk', {
        seq,
        capturedAt: seq * CHUNK_MS,
        pcm: chunkBase64(plan, seq),
        speech: plan[seq] === 1,
      });
      if (!result.ok) refusedChunks++;
    },
    options.measureHeap ? heap : undefined,
  );
  const endPressed = performance.now();
  await call('recorder.end');
  await waitFor('results.progress done', () => done !== undefined, 180_000);
  const resultsAfterMs = performance.now() - endPressed;
  const cpuS = cpuSeconds(cpu);
  const results = await call<{ summary?: unknown[]; transcript?: unknown[] }>('results.get', { sessionId });
  const summarySections = results.summary?.length ?? 0;
  const transcriptEntries = results.transcript?.length ?? 0;

  // The core stays up, as the app does between visits; the recorder is ended, the stream disposed.
  const trace = options.measureHeap ? await traceFrom(heap) : undefined;
  await core.stop();
  return {
    sessionId,
    ...(trace ? { heap: trace } : {}),
    ...played,
    cpuS,
    resultsAfterMs,
    status: (done as { status: string }).status,
    summarySections,
    transcriptEntries,
    events,
    states,
    pauses,
    logs,
    refusedChunks,
  };
}

// ---- the reference: a bare `ws` client ----------------------------------------------------------

/**
 * Sends AUDIO and EVENT frames straight to the sandbox: resumes from the first ACK after each
 * upgrade (4001 at the token's end: signs in again), resends what the service has not
 * acknowledged, keeps nothing else. The recorder's pause policy is copied in `referenceReplay`.
 */
class BareStream {
  private socket: WebSocket | undefined;
  private resumed = false;
  /** Plan indices appended and not yet acknowledged; `base` chunks precede the first of them. */
  private unacked: number[] = [];
  private base = 0;
  private appended = 0;
  private finishing = false;
  paused = false;
  connections = 0;
  closes: Record<string, number> = {};
  readonly finished: Promise<void>;
  private resolveFinished!: () => void;

  constructor(
    private readonly client: ServiceClient,
    private readonly sessionId: string,
    private readonly plan: Uint8Array,
  ) {
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
  }

  get open(): boolean {
    return this.resumed && this.socket?.readyState === WebSocket.OPEN;
  }

  connect(): void {
    this.resumed = false;
    this.connections++;
    const socket = new WebSocket(`${this.client.baseUrl.replace(/^http/, 'ws')}/ws/stream`, {
      headers: { ...this.client.headers(), ambient_session_id: this.sessionId },
      perMessageDeflate: false,
    });
    this.socket = socket;
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type?: string; received_bytes?: number };
      if (message.type !== 'ACK' || typeof message.received_bytes !== 'number') return;
      while (this.unacked.length > 0 && (this.base + 1) * CHUNK_BYTES <= message.received_bytes) {
        this.unacked.shift();
        this.base++;
      }
      if (!this.resumed) {
        this.resumed = true;
        for (const i of this.unacked) this.frame(i);
        if (this.paused) this.send({ type: 'EVENT', event: 'PAUSE' });
        if (this.finishing) this.send({ type: 'EVENT', event: 'EOF' });
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', (code) => {
      countInto(this.closes, String(code));
      if (socket !== this.socket) return;
      if (this.finishing && code === 1000 && this.unacked.length === 0) return this.resolveFinished();
      if (code === 4001) {
        void this.client.signIn(login('dr-bench-reference')).then(() => this.connect());
      } else setTimeout(() => this.connect(), 250);
    });
  }

  audio(i: number): void {
    this.unacked.push(i);
    this.appended++;
    if (this.open) this.frame(i);
  }

  event(event: 'PAUSE' | 'RESUME' | 'KEEP_ALIVE'): void {
    if (this.open) this.send({ type: 'EVENT', event });
  }

  finish(): Promise<void> {
    this.finishing = true;
    if (this.open) this.send({ type: 'EVENT', event: 'EOF' });
    return this.finished;
  }

  private frame(i: number): void {
    this.send({ type: 'AUDIO', data: chunkBase64(this.plan, i) });
  }

  private send(message: object): void {
    this.socket?.send(JSON.stringify(message));
  }
}

const login = (providerId: string) => ({
  partner_id: PARTNER.partnerId,
  partner_token: PARTNER.token,
  provider_id: providerId,
});

interface ReferenceRun {
  sessionId: string;
  heap: HeapTrace;
  wallMs: number;
  maxLagMs: number;
  cpuS: number;
  status: string;
  connections: number;
  closes: Record<string, number>;
}

/** The same visit, the same frames, the recorder's policy in a dozen lines, no core. */
async function referenceReplay(baseUrl: string, plan: Uint8Array, speed: number): Promise<ReferenceRun> {
  const client = new ServiceClient(baseUrl);
  await client.signIn(login('dr-bench-reference'));
  const sessionId = await client.createSession('benchvisitreference');
  await client.call('POST', `/api/v1/ambient/session/${sessionId}/context`, CONTEXT);
  const stream = new BareStream(client, sessionId, plan);
  stream.connect();

  let quietMs = 0;
  let preRoll: number[] = [];
  let keepAlive: NodeJS.Timeout | undefined;
  const heap: Memory[] = [];
  const cpu = process.cpuUsage();
  const played = await play(
    plan.length,
    CHUNK_MS / speed,
    (i) => {
      const speech = plan[i] === 1;
      if (stream.paused) {
        if (!speech) {
          preRoll.push(i);
          if (preRoll.length > PRE_ROLL_CHUNKS) preRoll.shift();
          return;
        }
        stream.paused = false;
        clearInterval(keepAlive);
        quietMs = 0;
        stream.event('RESUME');
        for (const held of preRoll) stream.audio(held);
        preRoll = [];
        stream.audio(i);
        return;
      }
      stream.audio(i);
      quietMs = speech ? 0 : quietMs + CHUNK_MS;
      if (quietMs >= AUTO_PAUSE_AFTER_MS && stream.open) {
        stream.paused = true;
        quietMs = 0;
        preRoll = [];
        stream.event('PAUSE');
        keepAlive = setInterval(() => stream.event('KEEP_ALIVE'), KEEP_ALIVE_EVERY_MS / speed);
      }
    },
    heap,
  );
  clearInterval(keepAlive);
  await stream.finish();
  await client.signIn(login('dr-bench-reference'));
  await client.call('POST', `/api/v1/ambient/session/${sessionId}/end`);
  let status = 'ended';
  while (!['completed', 'failed', 'skipped', 'cancelled'].includes(status)) {
    await sleep(50);
    status = (await client.call<{ status: string }>('GET', `/api/v1/ambient/session/${sessionId}/status`))
      .body.status;
  }
  // Kept like the core keeps them for the result view.
  const results = await Promise.all([
    client.call('GET', `/api/v1/ambient/session/${sessionId}/content`),
    client.call('GET', `/api/v1/ambient/session/${sessionId}/transcript`),
  ]);
  const cpuS = cpuSeconds(cpu);
  const trace = await traceFrom(heap);
  void results;
  return {
    sessionId,
    heap: trace,
    ...played,
    cpuS,
    status,
    connections: stream.connections,
    closes: stream.closes,
  };
}

/** A bare client on the same 100 ms timer: AUDIO frames straight into the socket. */
async function referenceJitter(baseUrl: string, plan: Uint8Array): Promise<{ sessionId: string }> {
  const client = new ServiceClient(baseUrl);
  await client.signIn(login('dr-bench-reference'));
  const sessionId = await client.createSession('benchjitterreference');
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws/stream`, {
    headers: { ...client.headers(), ambient_session_id: sessionId },
    perMessageDeflate: false,
  });
  const closed = once(socket, 'close');
  await once(socket, 'message'); // the first ACK: the stream is open
  await play(plan.length, CHUNK_MS, (i) => {
    socket.send(JSON.stringify({ type: 'AUDIO', data: chunkBase64(plan, i) }));
  });
  socket.send(JSON.stringify({ type: 'EVENT', event: 'EOF' }));
  await closed;
  return { sessionId };
}

// ---- the proxy that times frames ---------------------------------------------------------------

/**
 * Forwards TCP to `target` unchanged. On connections that upgrade to WebSocket it reads the
 * client's frames as they pass (header, mask, the first bytes of the payload) and prints
 * `A <session> <ms>` when an AUDIO frame has fully arrived, by this process's clock.
 */
async function runProxy(target: string): Promise<void> {
  const [host, port] = target.split(':') as [string, string];
  const server = createServer((client: Socket) => {
    const upstream = connect(Number(port), host);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    upstream.pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);

    let head: Buffer | undefined = Buffer.alloc(0);
    let sessionId = '';
    let frames: Buffer | undefined;
    client.on('data', (data: Buffer) => {
      const at = performance.now();
      upstream.write(data);
      if (head) {
        head = Buffer.concat([head, data]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const text = head.subarray(0, end).toString('latin1');
        const rest = head.subarray(end + 4);
        head = undefined;
        if (!/^upgrade:\s*websocket/im.test(text)) return;
        sessionId = /^ambient_session_id:\s*(\S+)/im.exec(text)?.[1] ?? 'unknown';
        frames = rest;
      } else if (frames) {
        frames = Buffer.concat([frames, data]);
      } else return;
      for (;;) {
        if (frames.length < 2) break;
        let length = (frames[1] as number) & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (frames.length < 4) break;
          length = frames.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (frames.length < 10) break;
          length = Number(frames.readBigUInt64BE(2));
          offset = 10;
        }
        const masked = ((frames[1] as number) & 0x80) !== 0;
        const maskAt = offset;
        if (masked) offset += 4;
        if (frames.length < offset + length) break;
        const peek = Buffer.alloc(Math.min(16, length));
        for (let k = 0; k < peek.length; k++) {
          peek[k] = (frames[offset + k] as number) ^ (masked ? (frames[maskAt + (k & 3)] as number) : 0);
        }
        if (peek.toString('latin1').startsWith('{"type":"AUDIO"')) {
          process.stdout.write(`A ${sessionId} ${at.toFixed(3)}\n`);
        }
        frames = frames.subarray(offset + length);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  console.log(`PROXY_PORT=${(server.address() as { port: number }).port}`);
  process.once('SIGTERM', () => process.exit(0));
}

// ---- processes ----------------------------------------------------------------------------------

const children: ChildProcess[] = [];

function lines(child: ChildProcess, onLine: (line: string) => void): void {
  createInterface({ input: child.stdout! }).on('line', onLine);
}

function firstLine(child: ChildProcess, prefix: string): Promise<string> {
  return new Promise((resolve, reject) => {
    lines(child, (line) => {
      if (line.startsWith(prefix)) resolve(line.slice(prefix.length));
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}) before printing ${prefix}`)));
  });
}

async function startSandbox(timeScale: number): Promise<string> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'sandbox/main.ts',
      '--port',
      '0',
      '--asr',
      'energy',
      '--time-scale',
      String(timeScale),
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  children.push(child);
  return firstLine(child, 'SANDBOX_URL=');
}

function startRole(role: string, args: string[], exposeGc = false): ChildProcess {
  const child = spawn(
    process.execPath,
    [...(exposeGc ? ['--expose-gc'] : []), '--import', 'tsx', SELF, '--role', role, ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  return child;
}

async function roleResult<T>(child: ChildProcess): Promise<T> {
  return JSON.parse(await firstLine(child, 'RESULT ')) as T;
}

async function stopChildren(): Promise<void> {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5_000)]);
    }),
  );
}

interface SandboxSummary {
  received_bytes: number;
  pcm_sha256: string;
  connections: number;
  timeline: { type: string }[];
}

async function sandboxSession(baseUrl: string, id: string): Promise<SandboxSummary> {
  return (await (await fetch(`${baseUrl}/__sandbox/sessions/${id}`)).json()) as SandboxSummary;
}

function timelineCounts(summary: SandboxSummary, types: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { type } of summary.timeline) if (types.includes(type)) countInto(counts, type);
  return counts;
}

// ---- the report ---------------------------------------------------------------------------------

/** p50 and p99 of |interval − 100 ms| between successive AUDIO frames. */
function jitter(times: number[]): { p50: number; p99: number; max: number; frames: number } {
  const deviations = times.slice(1).map((t, i) => Math.abs(t - (times[i] as number) - CHUNK_MS));
  return {
    p50: percentile(deviations, 50),
    p99: percentile(deviations, 99),
    max: Math.max(...deviations),
    frames: times.length,
  };
}

const fixed = (n: number, digits = 2) => n.toFixed(digits);
const ratio = (ours: number, reference: number) =>
  Math.abs(reference) < 0.05 ? '—' : `${(ours / reference).toFixed(1)}×`;
const listCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => `${key} ×${n}`)
    .join(', ') || 'none';

async function main(): Promise<void> {
  forceGc();
  const started = performance.now();
  const chunks = Math.round(MINUTES * CHUNKS_PER_MINUTE);
  const plan = visitPlan(chunks, 20261122, true);
  const jitterPlan = visitPlan(Math.round(JITTER_SECONDS * 10), 7, false);
  const speechShare = plan.reduce((sum, s) => sum + s, 0) / plan.length;

  const [fastUrl, realUrl] = await Promise.all([startSandbox(1 / SPEED), startSandbox(1)]);
  const proxy = startRole('proxy', ['--target', new URL(realUrl).host]);
  const proxyUrl = `http://127.0.0.1:${await firstLine(proxy, 'PROXY_PORT=')}`;
  const audioFrames = new Map<string, number[]>();
  lines(proxy, (line) => {
    const [kind, session, at] = line.split(' ');
    if (kind !== 'A' || !session) return;
    let times = audioFrames.get(session);
    if (!times) audioFrames.set(session, (times = []));
    times.push(Number(at));
  });

  // 1. The visit at SPEED×: the core here, the reference in its own process, at the same time.
  console.log(`replaying ${MINUTES} min at ${SPEED}× through the core and the reference…`);
  const referenceChild = startRole(
    'reference-replay',
    ['--url', fastUrl, '--minutes', String(MINUTES), '--speed', String(SPEED)],
    true,
  );
  const [ours, reference] = await Promise.all([
    runCore(fastUrl, plan, SPEED, { measureHeap: true, encounterId: 'benchvisit' }),
    roleResult<ReferenceRun>(referenceChild),
  ]);
  const oursAtService = await sandboxSession(fastUrl, ours.sessionId);
  const referenceAtService = await sandboxSession(fastUrl, reference.sessionId);

  // 2. Send jitter at 1×: the core here and the reference in its own process, both through the proxy.
  console.log(`streaming ${JITTER_SECONDS} s at real time through the proxy…`);
  const jitterChild = startRole('reference-jitter', [
    '--url',
    proxyUrl,
    '--jitter-seconds',
    String(JITTER_SECONDS),
  ]);
  const [oursRealTime, referenceRealTime] = await Promise.all([
    runCore(proxyUrl, jitterPlan, 1, { measureHeap: false, encounterId: 'benchjitter' }),
    roleResult<{ sessionId: string }>(jitterChild),
  ]);
  await sleep(300);
  const oursJitter = jitter(audioFrames.get(oursRealTime.sessionId) ?? []);
  const referenceJitterResult = jitter(audioFrames.get(referenceRealTime.sessionId) ?? []);
  await stopChildren();
  const totalS = (performance.now() - started) / 1000;

  // ---- numbers → markdown ----
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

  const markdown = `## Core: a ${MINUTES}-minute encounter through the contract

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
clock) as base64 through \`recorder.chunk\`, against the sandbox in its own process at
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
  ${listCounts(warnings)}; chunks refused by the router: ${ours.refusedChunks}.
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

Run: \`node --expose-gc --import tsx bench/core-encounter.ts\` (about 5 minutes; \`--minutes\`,
\`--speed\` and \`--jitter-seconds\` change the visit).`;

  if (!values['print-only']) writeSection('core-encounter', markdown);
  console.log(`\n${markdown}`);
}

// ---- entry --------------------------------------------------------------------------------------

async function role(): Promise<void> {
  switch (values.role) {
    case 'main':
      return main();
    case 'proxy':
      return runProxy(values.target as string);
    case 'reference-replay': {
      forceGc();
      const plan = visitPlan(Math.round(MINUTES * CHUNKS_PER_MINUTE), 20261122, true);
      console.log(`RESULT ${JSON.stringify(await referenceReplay(values.url as string, plan, SPEED))}`);
      return process.exit(0);
    }
    case 'reference-jitter': {
      const plan = visitPlan(Math.round(JITTER_SECONDS * 10), 7, false);
      console.log(`RESULT ${JSON.stringify(await referenceJitter(values.url as string, plan))}`);
      return process.exit(0);
    }
    default:
      throw new Error(`unknown role ${values.role}`);
  }
}

try {
  await role();
  if (values.role === 'main') process.exit(0);
} catch (error) {
  console.error(error);
  await stopChildren();
  process.exit(1);
}
