/** The main-process core, driven through its contract router as the renderer would drive it. */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAudioChunk, type RecorderView } from '../../src/shared/contract';
import type { AppCore } from '../../src/main/core/app-core';
import { createJsonFileStorage } from '../../src/main/core/json-file-storage';
import { silentLogger, systemClock, type Clock, type Logger } from '../../src/main/core/ports';
import { createMemorySecretBox } from '../../src/main/core/secrets/secret-box';
import { CHUNK_MS, CONTEXT, PARTNER } from './constants';
import { traceFrom, type HeapTrace, type Memory } from './heap';
import { play } from './play';
import { countInto, cpuSeconds, waitFor } from './tools';
import { chunkPcm } from './visit';

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

export interface CoreRun {
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

export async function runCore(
  baseUrl: string,
  plan: Uint8Array,
  speed: number,
  options: { measureHeap: boolean; encounterId: string },
): Promise<CoreRun> {
  // Imported here, not at the top: the reference and proxy processes load this module without the core.
  const { createAppCore } = await import('../../src/main/core/app-core');
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
  let refusedChunks = 0;
  core.events.subscribe((event, payload) => {
    countInto(events, event);
    if (event === 'recorder.chunkRefused') refusedChunks++;
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
  const played = await play(
    plan.length,
    CHUNK_MS / speed,
    async (seq) => {
      core.acceptChunk(
        encodeAudioChunk({
          seq,
          capturedAt: seq * CHUNK_MS,
          pcm: chunkPcm(plan, seq),
          speech: plan[seq] === 1,
        }),
      );
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
