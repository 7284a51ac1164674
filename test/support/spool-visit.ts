import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startSandbox, type Sandbox } from '../../sandbox/server';
import { syntheticSpeech } from '../../sandbox/test-support/service-client';
import type { AppCore } from '../../src/main/core/app-core';
import { createMemorySecretBox } from '../../src/main/core/secrets/secret-box';
import { readRecoveredAudio, recoverAudioSpool } from '../../src/main/core/spool/audio-spool';
import { loadSpoolKey } from '../../src/main/core/spool/spool-key';
import { encodeAudioChunk, type EventName, type VerbName } from '../../src/shared/contract';
import { callVerb, unlockWithTestPin, useBearerPartner } from './sandbox-partner';
import { createTestCore, testAppInfo } from './test-core';
import { createJsonFileStorage } from '../../src/main/core/json-file-storage';
import { silentLogger } from '../../src/main/core/ports';

/**
 * The visits of the spool's tests (spool-through-contract*.test.ts): a core against a sandbox
 * service, signed in as its bearer partner, fed chunks from a pattern, and the spool read back as
 * recovery would. `sandbox` and `core` are live: the hooks and startCore set them, and a test
 * file's imports see the current ones.
 */
export let sandbox: Sandbox;
export let core: AppCore;
export const secrets = createMemorySecretBox();
const events: { event: string; payload: Record<string, unknown> }[] = [];

/** One sandbox for the test file; the core of each test stopped after it. */
export function useSpoolSandbox(): void {
  beforeAll(async () => {
    sandbox = await startSandbox({ asr: 'energy', minSpeechMs: 500 });
  });
  afterAll(() => sandbox.close());
  afterEach(async () => core?.stop());
}

export const call = <T = Record<string, unknown>>(verb: VerbName, payload?: unknown) =>
  callVerb<T>(core, verb, payload);

export async function waitFor(event: EventName, match: (p: Record<string, unknown>) => boolean) {
  for (let i = 0; i < 1_500; i++) {
    const found = events.find((e) => e.event === event && match(e.payload));
    if (found) return found.payload;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no ${event}`);
}

export async function startCore(dataDir?: string): Promise<void> {
  // A new data directory is a new computer: no PIN store of the last one. The secret box is one
  // for the file (so the tests read every spool with one key), but a PIN store without the data
  // directory that counted its writes is an older copy, blocked (privacy/pin-generation.ts).
  if (dataDir === undefined) await secrets.delete('unlock-pins');
  core = await createTestCore({
    secrets,
    recorderTiming: { autoPauseAfterMs: 1_000, captureStallMs: 5_000 },
    ...(dataDir
      ? {
          appInfo: testAppInfo(dataDir),
          settingsStorage: createJsonFileStorage(join(dataDir, 'settings.json'), silentLogger),
        }
      : {}),
  });
  events.length = 0;
  core.events.subscribe((event, payload) =>
    events.push({ event, payload: payload as Record<string, unknown> }),
  );
  // The clinician's PIN is kept across runs: the next run starts locked, and they unlock it.
  await unlockWithTestPin(core);
}

export async function startVisit(
  options: { serviceUrl?: string; formItems?: unknown[] } = {},
): Promise<{ sessionId: string; formSessionId?: string; dataDir: string }> {
  await startCore();
  await useBearerPartner(core, options.serviceUrl ?? sandbox.url, 'dr-spool');
  await call('encounter.start', {
    kind: 'ambient',
    encounterId: 'spool1',
    ...(options.formItems ? { formItems: options.formItems } : {}),
  });
  const entry = (await call<{ entries: { sessionId: string; formSessionId?: string }[] }>('history.list'))
    .entries[0]!;
  const info = await call<{ dataDirectory: string }>('app.info');
  return { ...entry, dataDir: info.dataDirectory };
}

/** What the sandbox received for a session: byte count and SHA-256 of the PCM. */
export async function serviceCopyAt(url: string, sessionId: string) {
  return (await (await fetch(`${url}/__sandbox/sessions/${sessionId}`)).json()) as {
    status: string;
    pcm_sha256: string;
    received_bytes: number;
    connections: number;
  };
}

/** The spool's audio and its manifest, read back as recovery would. */
export async function spooledCopy(dataDir: string, sessionId: string) {
  const dir = join(dataDir, 'spool', sessionId);
  const key = await loadSpoolKey(secrets);
  const spooled = recoverAudioSpool(dir, key);
  const pcm = readRecoveredAudio(dir, key, spooled);
  return {
    manifest: spooled.manifest,
    bytes: pcm.length,
    sha256: createHash('sha256').update(pcm).digest('hex'),
  };
}

export const historyEntries = async () =>
  (await call<{ entries: { sessionId: string; state: string; audioKept?: boolean }[] }>('history.list'))
    .entries;

export const serviceCopy = (sessionId: string) => serviceCopyAt(sandbox.url, sessionId);

/** Chunks from a pattern (S speech, . quiet), numbered from `firstSeq`. */
export function play(pattern: string, firstSeq = 0): void {
  for (const [index, c] of [...pattern].entries()) {
    const seq = firstSeq + index;
    const speech = c === 'S';
    const pcm = syntheticSpeech([{ speechMs: speech ? 100 : 0, silenceMs: speech ? 0 : 100 }], seq + 1);
    core.acceptChunk(encodeAudioChunk({ seq, capturedAt: seq * 100, pcm, speech }));
  }
}
