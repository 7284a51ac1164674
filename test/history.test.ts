import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { syntheticSpeech } from '../sandbox/test-support/service-client';
import { encodeAudioChunk, type HistoryEntry, type Results } from '../src/shared/contract';
import type { AppCore } from '../src/main/core/app-core';
import { createJsonFileStorage } from '../src/main/core/json-file-storage';
import { silentLogger } from '../src/main/core/ports';
import { bindAppEvents, createAppStore } from '../src/renderer/store/app-store';
import { inProcessApi } from './support/in-process-api';
import { createMemorySecretBox } from '../src/main/core/secrets/secret-box';
import { createTestCore, testAppInfo } from './support/test-core';

/**
 * History: main lists the visits of this device, and a visit from an earlier run of the app is
 * reopened with its note fetched from the service (the built-in demo service keeps its sessions in
 * the same data directory), since nothing clinical is kept on this device.
 */
let cores: AppCore[] = [];
afterEach(async () => {
  for (const core of cores) await core.stop();
  cores = [];
});

/** One keychain for every run of the app in a test, as on a real computer. */
const secrets = createMemorySecretBox();

async function coreIn(dir: string): Promise<AppCore> {
  const core = await createTestCore({
    settingsStorage: createJsonFileStorage(join(dir, 'settings.json'), silentLogger),
    appInfo: testAppInfo(dir),
    secrets,
  });
  cores.push(core);
  return core;
}

describe('history', () => {
  it(
    'lists a visit through its states and reopens its note after a restart',
    { timeout: 60_000 },
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'scribe-history-core-'));
      const first = await coreIn(dir);
      const api = inProcessApi(first);
      const store = createAppStore(api);
      bindAppEvents(store, api);
      await store.getState().loadSettings();

      const view = await api.call('encounter.start', { kind: 'ambient', encounterId: 'bed4visit1' });
      await store.getState().loadHistory();
      expect(store.getState().history.map((e) => [e.encounterId, e.state])).toEqual([
        ['bed4visit1', 'recording'],
      ]);
      const pcm = syntheticSpeech([
        { speechMs: 0, silenceMs: 500 },
        { speechMs: 2_000, silenceMs: 500 },
      ]);
      for (let seq = 0; seq * 3_200 < pcm.length; seq++) {
        first.acceptChunk(
          encodeAudioChunk({
            seq,
            capturedAt: seq * 100,
            speech: true,
            pcm: pcm.subarray(seq * 3_200, (seq + 1) * 3_200),
          }),
        );
      }
      await api.call('recorder.end');
      // The list follows main's events: processing, then the service's verdict.
      await expect.poll(() => store.getState().history[0]?.state).toBe('processing');
      await expect
        .poll(() => store.getState().history[0]?.state, { timeout: 45_000 })
        .toMatch(/^(done|skipped)$/);
      const finished = store.getState().history[0] as HistoryEntry;
      const before = (await api.call('results.get', { sessionId: view.sessionId! })) as Results;
      await first.stop();
      cores = [];

      // A new run of the app on the same data directory.
      const second = await coreIn(dir);
      const again = createAppStore(inProcessApi(second));
      await again.getState().loadHistory();
      expect(again.getState().history).toEqual([finished]);
      await again.getState().reopen(view.sessionId!);
      expect(again.getState().resultsError).toBeNull();
      expect(again.getState().results).toEqual(before);

      // A finished visit has nothing left to finish or discard: the list says so in a sentence.
      await again.getState().finishInterrupted(view.sessionId!);
      expect(again.getState().historyError).toBe('This visit has nothing left to finish.');
      await again.getState().discardInterrupted(view.sessionId!);
      expect(again.getState().historyError).toBe('This visit has nothing left to finish.');

      // Unknown sessions are refused in a sentence, not with a crash.
      await again.getState().reopen('not-a-session');
      expect(again.getState().resultsError).toBe(
        'This app has no visit of that recording: open the visit from History.',
      );
    },
  );
});
