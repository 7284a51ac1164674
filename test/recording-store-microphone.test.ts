import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../src/main/core/app-core';
import { createAppStore } from '../src/renderer/store/app-store';
import { inProcessApi } from './support/in-process-api';
import { scriptedMicrophone } from './support/scripted-microphone';
import { createTestCore } from './support/test-core';

/**
 * The recording store and its microphone: access asked for and held, a microphone denied, missing
 * or failing, one chosen while it opens or before the visit, and the microphone check.
 */
let core: AppCore;

beforeEach(async () => {
  core = await createTestCore();
});

afterEach(async () => core.stop());

describe('recording from the store', () => {
  it('a microphone that is denied or missing is said once, before any visit exists: nothing at the service, no History row', async () => {
    const api = inProcessApi(core);
    const denied =
      'The app is not allowed to use the microphone. Allow microphone access for Ambient Scribe in your system’s privacy settings, then try again.';
    const store = createAppStore(api, {
      ...scriptedMicrophone(0, []),
      ensureAccess: () => Promise.reject(new Error(denied)),
    });
    await store.getState().loadSettings();
    await store.getState().startRecording();
    expect(store.getState().recordingError).toBe(denied);
    expect(api.calls).toEqual(['settings.get']);
    expect(store.getState().recorder?.state ?? 'idle').toBe('idle');
    expect(await api.call('history.list')).toEqual({ entries: [] });
  });

  it('holds the microphone it asked for until the recording’s own is open, then lets it go', async () => {
    const log: string[] = [];
    const api = inProcessApi(core);
    const store = createAppStore(api, {
      ...scriptedMicrophone(5, log),
      async ensureAccess() {
        log.push('access held');
        return () => log.push('access released');
      },
    });
    await store.getState().loadSettings();
    await store.getState().startRecording();
    expect(log).toEqual(['access held', 'microphone on', 'access released']);
    await store.getState().cancelRecording();
  });

  it('a microphone that fails after the visit started: says so and discards the visit it could not record', async () => {
    const api = inProcessApi(core);
    const store = createAppStore(api, {
      ...scriptedMicrophone(0, []),
      start: () =>
        Promise.reject(new Error('The app is not allowed to use the microphone. Allow microphone access …')),
    });
    await store.getState().loadSettings();
    await store.getState().startRecording();
    expect(store.getState().recordingError).toMatch(/^The app is not allowed to use the microphone/);
    expect(api.calls).toEqual(['settings.get', 'encounter.start', 'recorder.cancel']);
    expect((await api.call('recorder.state')).state).toBe('cancelled');
  });

  it('applies a microphone chosen, and a Cancel pressed, while the microphone is still opening', async () => {
    const log: string[] = [];
    let finishOpening!: () => void;
    const opening = new Promise<void>((resolve) => (finishOpening = resolve));
    const api = inProcessApi(core);
    const store = createAppStore(api, {
      ...scriptedMicrophone(0, log),
      async start() {
        log.push('microphone opening');
        await opening;
        return {
          chunksSent: 0,
          async stop() {
            log.push('microphone off');
          },
          async useMicrophone(choice) {
            log.push(`switched to ${choice.label}`);
          },
          useCall() {},
        };
      },
    });
    await store.getState().loadSettings();
    const started = store.getState().startRecording();
    await expect.poll(() => log).toEqual(['microphone opening']);
    const chosen = store.getState().chooseMicrophone({ deviceId: 'm2', label: 'Headset' });
    await expect.poll(() => core.settings.get().microphone.label).toBe('Headset');
    const cancelled = store.getState().cancelRecording();
    finishOpening();
    await Promise.all([started, chosen, cancelled]);
    expect(log).toEqual(['microphone opening', 'switched to Headset', 'microphone off']);
    expect(store.getState().recorder?.state).toBe('cancelled');
  });

  it('checks the microphone before the visit, follows a new choice, and hands it to the recording', async () => {
    const log: string[] = [];
    const api = inProcessApi(core);
    const store = createAppStore(api, scriptedMicrophone(2, log, api.calls));
    await store.getState().loadSettings();
    await store.getState().startMicCheck();
    expect(store.getState().micCheck).toEqual({ state: 'on', device: { deviceId: 'm1', label: 'Desk mic' } });
    expect(store.getState().levelFeed.current).toEqual({ rmsDbfs: -30, peakDbfs: -12, speech: false });
    // Nothing was sent to main: a check is not a visit.
    expect(api.calls).toEqual(['settings.get']);

    await store.getState().chooseMicrophone({ deviceId: 'm2', label: 'Headset' });
    await store.getState().startRecording();
    expect(log).toEqual(['check on default', 'check off', 'check on Headset', 'check off', 'microphone on']);
    expect(store.getState().micCheck).toEqual({ state: 'off' });
    await store.getState().cancelRecording();
  });

  it('says why the microphone check could not start', async () => {
    const store = createAppStore(inProcessApi(core), {
      ...scriptedMicrophone(0, []),
      check: () => Promise.reject(new Error('The app is not allowed to use the microphone. Allow it …')),
    });
    await store.getState().loadSettings();
    await store.getState().startMicCheck();
    expect(store.getState().micCheck).toEqual({
      state: 'failed',
      problem: 'The app is not allowed to use the microphone. Allow it …',
    });
  });

  it('remembers the chosen microphone in main’s settings', async () => {
    const store = createAppStore(inProcessApi(core), scriptedMicrophone(0, []));
    await store.getState().loadSettings();
    await store.getState().refreshInputs();
    expect(store.getState().inputs).toEqual([{ deviceId: 'm1', label: 'Desk mic' }]);
    await store.getState().chooseMicrophone({ deviceId: 'm1', label: 'Desk mic' });
    expect(core.settings.get().microphone).toEqual({ deviceId: 'm1', label: 'Desk mic' });
  });
});
