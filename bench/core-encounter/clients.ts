/**
 * The two clients of the visit. Ours: the main-process core, driven through its contract router as
 * the renderer would drive it. The reference: a bare `ws` connection to the sandbox sending the
 * same frames, with the recorder's pause policy copied in a dozen lines and no core.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ServiceClient } from '../../sandbox/test-support/service-client';
import { encodeAudioChunk, type RecorderView } from '../../src/shared/contract';
import { createJsonFileStorage } from '../../src/main/core/json-file-storage';
import { silentLogger, systemClock, type Clock } from '../../src/main/core/ports';
import { createMemorySecretBox } from '../../src/main/core/secrets/secret-box';
import * as visit from './visit';

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

export async function runCore(
  baseUrl: string,
  plan: Uint8Array,
  speed: number,
  options: { measureHeap: boolean; encounterId: string },
) {
  // Imported here, not at the top: the reference and proxy processes load this module without the core.
  const { createAppCore } = await import('../../src/main/core/app-core');
  const dir = await mkdtemp(join(tmpdir(), 'scribe-bench-core-'));
  // The app of a clinic set up for its service (by IT's policy, or saved at an earlier launch): it
  // starts on the service's settings. A fresh data directory would start on the built-in demo, which
  // the core runs in this process (Fastify, an OpenID provider) until the app quits, and its heap
  // and timers would count in the core's CPU time (issue 40, session 28: 11 MB more live heap). The
  // one "sign-in failed" warning is the core trying these settings before it is given the token.
  const settings = {
    service: { kind: 'url', baseUrl },
    partnerId: visit.PARTNER.partnerId,
    authModel: 'bearer',
    providerId: 'dr-bench',
    providerName: 'Dr Bench',
    providerOrgId: 'clinic-bench',
  };
  await writeFile(join(dir, 'settings.json'), JSON.stringify(settings), { mode: 0o600 });
  const runtime = { node: process.versions.node };
  const logs: Record<string, number> = {};
  const line = (level: string) => (message: string) => visit.countInto(logs, `${level} ${message}`);
  const core = await createAppCore({
    settingsStorage: createJsonFileStorage(join(dir, 'settings.json'), silentLogger),
    secrets: createMemorySecretBox(),
    appInfo: {
      name: 'Ambient Scribe',
      version: '0',
      mode: 'browser',
      platform: 'linux',
      runtime,
      dataDirectory: dir,
    },
    log: { info: line('info'), warn: line('warn'), error: line('error') },
    clock: fastClock(speed),
  });
  let state = 'idle';
  let done: { status: string } | undefined;
  let refusedChunks = 0;
  core.events.subscribe((event, payload) => {
    if (event === 'recorder.chunkRefused') refusedChunks++;
    if (event === 'recorder.changed') state = (payload as RecorderView).state;
    if (event === 'results.progress' && (payload as { done: boolean }).done)
      done = payload as { status: string };
  });
  const call = async <T>(verb: string, payload?: unknown): Promise<T> => {
    const result = await core.router.dispatch(verb, payload);
    if (!result.ok) throw new Error(`${verb}: ${result.error.message}`);
    return result.value as T;
  };
  const waitFor = async (what: string, test: () => boolean, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await visit.sleep(10);
    }
  };

  // Saved again through the contract, as the Settings pane does: the same values, nothing changes.
  await call('settings.set', settings);
  await call('secrets.setPartnerToken', { token: visit.PARTNER.token });
  if (!(await call<{ signedIn: boolean }>('auth.signIn')).signedIn)
    throw new Error('the core could not sign in to the sandbox');
  // A clinician records only once they have a PIN for this computer (issue 39), as in the window.
  await call('privacy.setPin', { pin: '2468' });
  const start = { kind: 'ambient', encounterId: options.encounterId, context: visit.CONTEXT };
  const sessionId = (await call<RecorderView>('encounter.start', start)).sessionId as string;
  // At real time, start once the stream is open, so the first intervals measure sending, not the
  // upgrade. At 20× the microphone runs from the start, as it does in the app (the recorder's
  // 1 s capture watchdog is 50 ms of wall clock there).
  if (speed === 1) await waitFor('the stream to open', () => state === 'streaming', 10_000);

  const heap: visit.Memory[] = [];
  const cpu = process.cpuUsage();
  const played = await visit.play(
    plan.length,
    visit.CHUNK_MS / speed,
    (seq) => {
      const pcm = visit.chunkPcm(plan, seq);
      core.acceptChunk(
        encodeAudioChunk({ seq, capturedAt: seq * visit.CHUNK_MS, pcm, speech: plan[seq] === 1 }),
      );
    },
    options.measureHeap ? heap : undefined,
  );
  const endPressed = performance.now();
  await call('recorder.end');
  await waitFor('results.progress done', () => done !== undefined, 180_000);
  const resultsAfterMs = performance.now() - endPressed;
  const cpuS = visit.cpuSeconds(cpu);
  const results = await call<{ summary?: unknown[]; transcript?: unknown[] }>('results.get', { sessionId });
  // The core stays up, as the app does between visits; the recorder is ended, the stream disposed.
  const trace = options.measureHeap ? await visit.traceFrom(heap) : undefined;
  await core.stop();
  return {
    sessionId,
    /** After sign-in and each minute of audio, and after End once the results are in. */
    heap: trace,
    ...played,
    cpuS,
    resultsAfterMs,
    status: (done as { status: string } | undefined)?.status ?? 'unknown',
    summarySections: results.summary?.length ?? 0,
    transcriptEntries: results.transcript?.length ?? 0,
    logs,
    refusedChunks,
  };
}

const login = () => ({ ...visit.PARTNER_LOGIN, provider_id: 'dr-bench-reference' });

/**
 * The reference's stream: AUDIO and EVENT frames straight to the sandbox; resumes from the first
 * ACK after each upgrade (4001 at the token's end: signs in again), resends what the service has
 * not acknowledged, keeps nothing else.
 */
class BareStream {
  private socket: WebSocket | undefined;
  private resumed = false;
  /** Plan indices appended and not yet acknowledged; `base` chunks precede the first of them. */
  private unacked: number[] = [];
  private base = 0;
  private finishing = false;
  paused = false;
  connections = 0;
  closes: Record<string, number> = {};
  private resolveFinished!: () => void;
  readonly finished = new Promise<void>((resolve) => (this.resolveFinished = resolve));

  constructor(
    private readonly client: ServiceClient,
    private readonly sessionId: string,
    private readonly plan: Uint8Array,
  ) {}

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
      while (this.unacked.length > 0 && (this.base + 1) * visit.CHUNK_BYTES <= message.received_bytes) {
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
      visit.countInto(this.closes, String(code));
      if (socket !== this.socket) return;
      if (this.finishing && code === 1000 && this.unacked.length === 0) return this.resolveFinished();
      if (code === 4001) void this.client.signIn(login()).then(() => this.connect());
      else setTimeout(() => this.connect(), 250);
    });
  }

  audio(i: number): void {
    this.unacked.push(i);
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
    this.send({ type: 'AUDIO', data: visit.chunkBase64(this.plan, i) });
  }

  private send(message: object): void {
    this.socket?.send(JSON.stringify(message));
  }
}

export type ReferenceRun = Awaited<ReturnType<typeof referenceReplay>>;

/** The same visit, the same frames, the recorder's policy copied, no core (its own process). */
export async function referenceReplay(baseUrl: string, plan: Uint8Array, speed: number) {
  const client = new ServiceClient(baseUrl);
  await client.signIn(login());
  const sessionId = await client.createSession('benchvisitreference');
  await client.call('POST', `/api/v1/ambient/session/${sessionId}/context`, visit.CONTEXT);
  const stream = new BareStream(client, sessionId, plan);
  stream.connect();

  let quietMs = 0;
  let preRoll: number[] = [];
  let keepAlive: NodeJS.Timeout | undefined;
  const heap: visit.Memory[] = [];
  const cpu = process.cpuUsage();
  const played = await visit.play(
    plan.length,
    visit.CHUNK_MS / speed,
    (i) => {
      const speech = plan[i] === 1;
      if (stream.paused) {
        if (!speech) {
          preRoll.push(i);
          if (preRoll.length > visit.PRE_ROLL_CHUNKS) preRoll.shift();
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
      quietMs = speech ? 0 : quietMs + visit.CHUNK_MS;
      if (quietMs >= visit.AUTO_PAUSE_AFTER_MS && stream.open) {
        stream.paused = true;
        quietMs = 0;
        preRoll = [];
        stream.event('PAUSE');
        keepAlive = setInterval(() => stream.event('KEEP_ALIVE'), visit.KEEP_ALIVE_EVERY_MS / speed);
      }
    },
    heap,
  );
  clearInterval(keepAlive);
  await stream.finish();
  await client.signIn(login());
  await client.call('POST', `/api/v1/ambient/session/${sessionId}/end`);
  let status = 'ended';
  while (!['completed', 'failed', 'skipped', 'cancelled'].includes(status)) {
    await visit.sleep(50);
    status = (await client.call<{ status: string }>('GET', `/api/v1/ambient/session/${sessionId}/status`))
      .body.status;
  }
  // Kept like the core keeps them for the result view.
  const results = await Promise.all([
    client.call('GET', `/api/v1/ambient/session/${sessionId}/content`),
    client.call('GET', `/api/v1/ambient/session/${sessionId}/transcript`),
  ]);
  const cpuS = visit.cpuSeconds(cpu);
  const heapTrace = await visit.traceFrom(heap);
  void results;
  return { sessionId, heap: heapTrace, ...played, cpuS, status, connections: stream.connections };
}

/** A bare client on the same 100 ms timer: AUDIO frames straight into the socket. */
export async function referenceJitter(baseUrl: string, plan: Uint8Array): Promise<{ sessionId: string }> {
  const client = new ServiceClient(baseUrl);
  await client.signIn(login());
  const sessionId = await client.createSession('benchjitterreference');
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws/stream`, {
    headers: { ...client.headers(), ambient_session_id: sessionId },
    perMessageDeflate: false,
  });
  const closed = once(socket, 'close');
  await once(socket, 'message'); // the first ACK: the stream is open
  await visit.play(plan.length, visit.CHUNK_MS, (i) => {
    socket.send(JSON.stringify({ type: 'AUDIO', data: visit.chunkBase64(plan, i) }));
  });
  socket.send(JSON.stringify({ type: 'EVENT', event: 'EOF' }));
  await closed;
  return { sessionId };
}
