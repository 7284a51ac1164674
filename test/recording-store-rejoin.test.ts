import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../src/main/core/app-core';
import { bindAppEvents, createAppStore } from '../src/renderer/store/app-store';
import { REJOINED_NOTICE } from '../src/renderer/store/recording-states';
import { inProcessApi } from './support/in-process-api';
import { scriptedMicrophone } from './support/scripted-microphone';
import { createTestCore } from './support/test-core';

/**
 * The recording store in a window that loads again (a reload mid-visit): it finds the visit main
 * is still recording and carries on with a new microphone, or, with none recording, opens nothing.
 */
let core: AppCore;

beforeEach(async () => {
  core = await createTestCore();
});

afterEach(async () => core.stop());

describe('recording from the store', () => {
  it('a reloaded window finds the visit still recording, opens the microphone again and carries on', async () => {
    const firstLog: string[] = [];
    const first = createAppStore(inProcessApi(core), scriptedMicrophone(20, firstLog));
    await first.getState().loadSettings();
    await first.getState().startRecording();
    await expect
      .poll(() => core.router.dispatch('recorder.state', undefined), { timeout: 10_000 })
      .toMatchObject({
        value: { elapsedMs: 2_000 },
      });
    // The page goes away without ending anything: its transport tells the core.
    core.rendererDetached();

    // The new page: a fresh store on the same core, whose microphone numbers its chunks from 0.
    const log: string[] = [];
    const api = inProcessApi(core);
    const refused: unknown[] = [];
    api.on('recorder.chunkRefused', (problem) => refused.push(problem));
    const microphone = scriptedMicrophone(10, log, api.calls);
    const waitedFor: unknown[] = [];
    const store = createAppStore(api, {
      ...microphone,
      start: async (deps) => {
        // The graph may get ready at once, but the microphone waits for main's answer to attach.
        waitedFor.push(await deps.microphoneMayOpen);
        return microphone.start(deps);
      },
    });
    bindAppEvents(store, api);
    await store.getState().loadSettings();
    await store.getState().rejoinRecording();
    // Every ms of waiting is audio missing: the microphone opens once main has answered attach.
    expect(waitedFor).toEqual([
      expect.objectContaining({ state: expect.any(String), elapsedMs: expect.any(Number) }),
    ]);
    expect(api.calls).toEqual(['settings.get', 'recorder.state', 'recorder.attach']);
    expect(log).toEqual(['microphone on']);
    expect(store.getState().recordingNotice).toBe(REJOINED_NOTICE);
    // Main took the new page's chunks after the old ones: 3 s, never paused for a stall.
    await expect.poll(() => store.getState().recorder?.elapsedMs, { timeout: 10_000 }).toBe(3_000);
    await expect.poll(() => store.getState().recorder?.state, { timeout: 10_000 }).toBe('streaming');
    expect(refused).toEqual([]);
    // Asking again (the contract link blinked) starts nothing twice.
    await store.getState().rejoinRecording();
    expect(log).toEqual(['microphone on']);

    await store.getState().endRecording();
    expect(store.getState().recordingNotice).toBeNull();
    await expect.poll(() => store.getState().results?.done, { timeout: 30_000 }).toBe(true);
  });

  it('a rejoin the browser holds until a press: the window asks for one, and End is that press, ending on its first try', async () => {
    const first = createAppStore(inProcessApi(core), scriptedMicrophone(20, []));
    await first.getState().loadSettings();
    await first.getState().startRecording();
    await expect
      .poll(() => core.router.dispatch('recorder.state', undefined), { timeout: 10_000 })
      .toMatchObject({ value: { elapsedMs: 2_000 } });
    core.rendererDetached();

    const log: string[] = [];
    const api = inProcessApi(core);
    const microphone = scriptedMicrophone(5, log, api.calls);
    let pressedOnce = 0;
    const store = createAppStore(api, {
      ...microphone,
      // As the capture graph does under an autoplay rule: nothing opens until `start` is called.
      start: async (deps) => {
        let started!: () => void;
        const running = new Promise<void>((resolve) => (started = resolve));
        deps.onPressNeeded?.(async () => {
          pressedOnce += 1;
          started();
        });
        await running;
        return microphone.start(deps);
      },
    });
    bindAppEvents(store, api);
    await store.getState().loadSettings();
    const rejoined = store.getState().rejoinRecording();
    await expect.poll(() => store.getState().pressNeededSince).toBeGreaterThan(0);
    expect(log).toEqual([]);

    // End, pressed while the microphone waits: it is the press, and the visit ends with it.
    await store.getState().endRecording();
    await rejoined;
    expect(pressedOnce).toBe(1);
    expect(store.getState().pressNeededSince).toBeNull();
    expect(log).toEqual(['microphone on', 'microphone off (main told to end: false)']);
    expect(api.calls.at(-1)).toBe('recorder.end');
    expect(store.getState().recordingError).toBeNull();
  });

  it('a window that loads with no visit recording opens no microphone', async () => {
    const log: string[] = [];
    const api = inProcessApi(core);
    const store = createAppStore(api, scriptedMicrophone(5, log, api.calls));
    await store.getState().loadSettings();
    await store.getState().rejoinRecording();
    expect(api.calls).toEqual(['settings.get', 'recorder.state']);
    expect(log).toEqual([]);
    expect(store.getState().recordingNotice).toBeNull();
    // And main refuses a capture joining no visit, naming why.
    expect(await core.router.dispatch('recorder.attach', undefined)).toMatchObject({
      ok: false,
      error: { message: 'No recording is running.' },
    });
  });
});
