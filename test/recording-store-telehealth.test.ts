import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../src/main/core/app-core';
import type { SharedCall } from '../src/renderer/audio/capture-types';
import { createAppStore } from '../src/renderer/store/app-store';
import { inProcessApi } from './support/in-process-api';
import { scriptedMicrophone } from './support/scripted-microphone';
import { createTestCore } from './support/test-core';

/**
 * The recording store in a telehealth visit (issue 30): the call's sound shared before the
 * microphone, refused, stopped when the visit cannot start, and shared again mid-visit.
 */
let core: AppCore;

beforeEach(async () => {
  core = await createTestCore();
});

afterEach(async () => core.stop());

describe('a telehealth visit from the store (issue 30)', () => {
  /** A shared call that logs its life; `label` names it in the log. */
  const sharedCall = (label: string, log: string[]): SharedCall => ({
    label,
    stop: () => log.push(`${label} stopped`),
  });

  it('asks for the call’s sound first, then the microphone, and hands the call to the recording', async () => {
    const log: string[] = [];
    const api = inProcessApi(core);
    const scripted = scriptedMicrophone(5, log);
    let handed: SharedCall | undefined;
    const store = createAppStore(api, {
      ...scripted,
      async shareCall() {
        log.push('call shared');
        return sharedCall('the call', log);
      },
      async ensureAccess() {
        log.push('microphone allowed');
        return () => undefined;
      },
      start(deps) {
        handed = deps.call;
        return scripted.start(deps);
      },
    });
    await store.getState().loadSettings();
    await store.getState().saveSettings({ visitAudio: 'telehealth' });
    await store.getState().startRecording();
    expect(store.getState().recordingError).toBeNull();
    expect(log).toEqual(['call shared', 'microphone allowed', 'microphone on']);
    expect(handed?.label).toBe('the call');
    await store.getState().cancelRecording();
  });

  it('a call not shared is said once and no visit is created; the microphone alone then records; in the room nothing asks for it', async () => {
    const log: string[] = [];
    const api = inProcessApi(core);
    const refused = 'The call’s sound was not shared, so nothing was recorded. …';
    const microphone = scriptedMicrophone(5, log);
    const recordedAs: string[] = [];
    const store = createAppStore(api, {
      ...microphone,
      start: (deps) => {
        recordedAs.push(deps.settings.visitAudio);
        return microphone.start(deps);
      },
      shareCall: () => Promise.reject(new Error(refused)),
    });
    await store.getState().loadSettings();
    await store.getState().saveSettings({ visitAudio: 'telehealth' });
    await store.getState().startRecording();
    expect(store.getState().recordingError).toBe(refused);
    expect(store.getState().sharingCall).toBe(false);
    expect(api.calls).not.toContain('encounter.start');
    expect(log).toEqual([]);
    expect(await api.call('history.list')).toEqual({ entries: [] });

    // The microphone alone is offered for this visit (the policy may lock Telehealth): it records
    // as a visit in the room, asking for no call, and the setting stays as it was.
    expect(store.getState().callNotShared).toBe(true);
    await store.getState().startRecording({ microphoneOnly: true });
    expect(store.getState().recordingError).toBeNull();
    expect(store.getState().callNotShared).toBe(false);
    expect(log).toEqual(['microphone on']);
    expect(recordedAs).toEqual(['room']);
    expect(store.getState().settings?.visitAudio).toBe('telehealth');
    await store.getState().cancelRecording();
    log.length = 0;

    // In the room the same store records the microphone, asking for no call.
    await store.getState().saveSettings({ visitAudio: 'room' });
    await store.getState().startRecording();
    expect(store.getState().recordingError).toBeNull();
    expect(log).toEqual(['microphone on']);
    await store.getState().cancelRecording();
  });

  it('stops sharing the call when the microphone or the service fails, so nothing is captured for nobody', async () => {
    const log: string[] = [];
    const api = inProcessApi(core);
    const store = createAppStore(api, {
      ...scriptedMicrophone(0, log),
      shareCall: async () => sharedCall('the call', log),
      ensureAccess: () => Promise.reject(new Error('No microphone was found.')),
    });
    await store.getState().loadSettings();
    await store.getState().saveSettings({ visitAudio: 'telehealth' });
    await store.getState().startRecording();
    expect(store.getState().recordingError).toBe('No microphone was found.');
    expect(log).toEqual(['the call stopped']);

    const failing = createAppStore(inProcessApi(core), {
      ...scriptedMicrophone(0, log),
      shareCall: async () => sharedCall('the second call', log),
      start: () => Promise.reject(new Error('The microphone could not be started.')),
    });
    await failing.getState().loadSettings();
    await failing.getState().startRecording();
    expect(failing.getState().recordingError).toBe('The microphone could not be started.');
    expect(log).toEqual(['the call stopped', 'the second call stopped']);
  });

  it('shares the call again mid-visit into the running recording; one chosen after End is let go', async () => {
    const log: string[] = [];
    const api = inProcessApi(core);
    const scripted = scriptedMicrophone(5, log);
    let calls = 0;
    // Set while the clinician is still in the browser's picker.
    const picker: { choosing?: Promise<void> } = {};
    const store = createAppStore(api, {
      ...scripted,
      async shareCall() {
        const call = sharedCall(`call ${++calls}`, log);
        await picker.choosing;
        return call;
      },
      async start(deps) {
        const session = await scripted.start(deps);
        return { ...session, useCall: (call: SharedCall) => log.push(`recording takes ${call.label}`) };
      },
    });
    await store.getState().loadSettings();
    await store.getState().saveSettings({ visitAudio: 'telehealth' });
    await store.getState().startRecording();
    await store.getState().shareCallAgain();
    expect(log).toEqual(['microphone on', 'recording takes call 2']);

    let chosen!: () => void;
    picker.choosing = new Promise((resolve) => (chosen = resolve));
    const sharing = store.getState().shareCallAgain();
    await expect.poll(() => store.getState().sharingCall).toBe(true);
    await store.getState().endRecording();
    chosen();
    await sharing;
    expect(log.slice(2)).toEqual(['microphone off (main told to end: false)', 'call 3 stopped']);
    expect(store.getState().sharingCall).toBe(false);
  });
});
