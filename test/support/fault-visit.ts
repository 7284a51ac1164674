import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxProcess, type SandboxProcess } from '../../sandbox/test-support/sandbox-process';
import { encodeAudioChunk, type VerbName } from '../../src/shared/contract';
import type { AppCore } from '../../src/main/core/app-core';
import type { HistoryEntry, RecorderView } from '../../src/shared/contract';
import { waitUntil } from '../../src/main/core/stream/sandbox-harness.test-support';
import { chooseTestPin } from './sandbox-partner';
import { createTestCore } from './test-core';

/**
 * One visit recorded by the main-process core against the sandbox as its own process, for the
 * contract tier's fault tests: the core is signed in as the sandbox's bearer partner, and a feeder
 * plays the committed conversation (e2e/fixtures/conversation.wav) into the renderer's chunk
 * channel, 100 ms chunks with the speech flags of its turn file, at twice real time. The sandbox
 * runs at a quarter of its timers (as in the end-to-end tests), so its 4× rate cap is 16× real time
 * and never holds the feed back; the core's own timers (reconnect backoff, liveness, delivery
 * retries) run on the wall clock, as in the app.
 */

export const FIXTURE_CHUNK_BYTES = 3_200;
/** The first four turns and the start of the fifth: enough speech for a note, short enough to feed in 8 s. */
const VISIT_MS = 16_000;
const FEED_EVERY_MS = 50;
const BEARER = { id: 'demo-bearer', token: 'sandbox-bearer-partner-token' };

const wav = readFileSync('e2e/fixtures/conversation.wav');
const turns = (
  JSON.parse(readFileSync('e2e/fixtures/conversation.turns.json', 'utf8')) as {
    turns: { startMs: number; endMs: number }[];
  }
).turns;
const fixtureChunks = Array.from({ length: VISIT_MS / 100 }, (_, seq) => ({
  pcm: wav.subarray(44 + seq * FIXTURE_CHUNK_BYTES, 44 + (seq + 1) * FIXTURE_CHUNK_BYTES),
  speech: turns.some((t) => seq * 100 + 100 > t.startMs && seq * 100 < t.endMs),
}));

type Progress = { sessionId: string; status: string; done: boolean; offline?: boolean };

export interface FaultVisit extends AsyncDisposable {
  readonly sandbox: SandboxProcess;
  readonly sessionId: string;
  /** Resolves once the feed has passed `ms` of the visit (capture clock). */
  reach(ms: number): Promise<void>;
  /** Resolves once every chunk of the visit has been fed. */
  fedAll(): Promise<void>;
  /** The audio fed so far. */
  fed(): Buffer;
  /** Every recorder state the core reported, in order, without repeats in a row. */
  states(): string[];
  view(): RecorderView;
  waitForState(state: RegExp, timeoutMs?: number): Promise<void>;
  waitForProgress(match: (progress: Progress) => boolean, timeoutMs: number): Promise<Progress>;
  historyEntry(): Promise<HistoryEntry>;
  /** End once everything is fed, then wait for the visit's results. */
  endAndGetResults(): Promise<{ status: string; transcript?: unknown[] }>;
  call<T = Record<string, unknown>>(verb: VerbName, payload?: unknown): Promise<T>;
}

export async function startFaultVisit(options: { ack: boolean }): Promise<FaultVisit> {
  const dataDir = await mkdtemp(join(tmpdir(), 'scribe-fault-sandbox-'));
  const sandbox = await startSandboxProcess({
    dataDir,
    timeScale: 0.25,
    asr: 'energy',
    ack: options.ack,
    entry: 'source',
  });
  const core: AppCore = await createTestCore();
  const views: RecorderView[] = [];
  const progress: Progress[] = [];
  core.events.subscribe((event, payload) => {
    if (event === 'recorder.changed') views.push(payload as RecorderView);
    if (event === 'results.progress') progress.push(payload as Progress);
  });

  const call = async <T>(verb: VerbName, payload?: unknown): Promise<T> => {
    const result = await core.router.dispatch(verb, payload);
    if (!result.ok) throw new Error(`${verb}: ${result.error.message}`);
    return result.value as T;
  };

  await call('settings.set', {
    service: { kind: 'url', baseUrl: sandbox.url },
    partnerId: BEARER.id,
    authModel: 'bearer',
    providerId: 'dr-faults',
    providerName: 'Dr Faults',
    providerOrgId: 'clinic-faults',
    // Its longest: no pause in a visit of speech and short gaps, so every fed chunk is sent.
    autoPauseAfterMs: 20_000,
  });
  await call('secrets.setPartnerToken', { token: BEARER.token });
  await call('auth.signIn');
  await chooseTestPin(core);
  const encounterId = `fault${Math.random().toString(36).slice(2, 10)}`;
  const { sessionId } = await call<{ sessionId: string }>('encounter.start', {
    kind: 'ambient',
    encounterId,
  });

  let fedCount = 0;
  let stopped = false;
  const feeding = (async () => {
    for (const [seq, chunk] of fixtureChunks.entries()) {
      if (stopped) return;
      core.acceptChunk(
        encodeAudioChunk({ seq, capturedAt: seq * 100, pcm: chunk.pcm, speech: chunk.speech }),
      );
      fedCount = seq + 1;
      await new Promise((resolve) => setTimeout(resolve, FEED_EVERY_MS));
    }
  })();

  const states = () => views.map((v) => v.state).filter((state, k, all) => k === 0 || all[k - 1] !== state);
  const waitForProgress = async (match: (p: Progress) => boolean, timeoutMs: number) => {
    await waitUntil(
      () => progress.some((p) => p.sessionId === sessionId && match(p)),
      'results progress',
      timeoutMs,
    );
    return progress.find((p) => p.sessionId === sessionId && match(p))!;
  };
  const fedAll = () => feeding;

  return {
    sandbox,
    sessionId,
    reach: (ms) => waitUntil(() => fedCount * 100 >= ms, `${ms} ms of audio fed`, 30_000),
    fedAll,
    fed: () => Buffer.concat(fixtureChunks.slice(0, fedCount).map((c) => c.pcm)),
    states,
    view: () => views.at(-1)!,
    waitForState: (state, timeoutMs = 10_000) =>
      waitUntil(() => state.test(views.at(-1)?.state ?? ''), `recorder state ${state}`, timeoutMs),
    waitForProgress,
    async historyEntry() {
      const { entries } = await call<{ entries: HistoryEntry[] }>('history.list');
      return entries.find((e) => e.sessionId === sessionId)!;
    },
    async endAndGetResults() {
      await fedAll();
      await call('recorder.end');
      await waitForProgress((p) => p.done, 60_000);
      return call<{ status: string; transcript?: unknown[] }>('results.get', { sessionId });
    },
    call,
    async [Symbol.asyncDispose]() {
      stopped = true;
      await feeding;
      await core.stop();
      await sandbox.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
