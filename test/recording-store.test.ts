import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { syntheticSpeech } from '../sandbox/test-support/service-client';
import { encodeAudioChunk } from '../src/shared/contract';
import type { AppCore } from '../src/main/core/app-core';
import type { CaptureDeps, SharedCall } from '../src/renderer/audio/capture-types';
import { bindAppEvents, createAppStore } from '../src/renderer/store/app-store';
import type { MicrophoneAccess } from '../src/renderer/store/microphone-access';
import { REJOINED_NOTICE } from '../src/renderer/store/recording-states';
import { inProcessApi } from './support/in-process-api';
import { createTestCore } from './support/test-core';

/**
 * The recording part of the renderer's store against the real core and its built-in demo service:
 * the microphone is a stand-in that sends chunks through the store's chunk channel, because the
 * real one needs a browser (e2e/capture.spec.ts covers it).
 */
let core: AppCore;

beforeEach(async () => {
  core = await createTestCore();
});

afterEach(async () => core.stop());

/** A microphone that sends `chunks` 100 ms chunks of speech as soon as it starts. */
function scriptedMicrophone(chunks: number, log: string[], calls: string[] = []): MicrophoneAccess {
  return {
    async start(deps: Pick<CaptureDeps, 'sendChunk' | 'onStatus' | 'onLevel' | 'microphoneMayOpen'>) {
      // As the capture does: the microphone waits for what it is told to wait for (a rejoin's attach).
      await deps.microphoneMayOpen;
      log.push('microphone on');
      deps.onStatus({
        state: 'recording',
        voiceDetection: 'ready',
        noSignal: false,
        device: { deviceId: 'm1', label: 'Desk mic' },
      });
      const pcm = syntheticSpeech([{ speechMs: chunks * 100, silenceMs: 0 }]);
      for (let seq = 0; seq < chunks; seq++) {
        deps.sendChunk(
          encodeAudioChunk({
            seq,
            capturedAt: seq * 100,
            speech: true,
            pcm: pcm.subarray(seq * 3_200, (seq + 1) * 3_200),
          }),
        );
      }
      return {
        chunksSent: chunks,
        async stop() {
          // A real microphone takes a moment to flush its last chunks.
          await new Promise((resolve) => setTimeout(resolve, 50));
          log.push(`microphone off (main told to end: ${calls.includes('recorder.end')})`);
        },
        async useMicrophone() {},
        useCall() {},
      };
    },
    listInputs: async () => [{ deviceId: 'm1', label: 'Desk mic' }],
    async ensureAccess() {
      return () => undefined;
    },
    onDeviceChange: () => () => undefined,
    shareCall: () => Promise.reject(new Error('no call in this test')),
    async check(settings, onLevel) {
      log.push(`check on ${settings.microphone.label || 'default'}`);
      onLevel({ rmsDbfs: -30, peakDbfs: -12 });
      return {
        device: { deviceId: 'm1', label: 'Desk mic' },
        async stop() {
          log.push('check off');
        },
      };
    },
  };
}

describe('recording from the store', () => {
  it('starts a visit in main, sends the microphone’s chunks, and ends it after the microphone is off', async () => {
    const log: string[] = [];
    const api = inProcessApi(core);
    const store = createAppStore(api, scriptedMicrophone(20, log, api.calls));
    bindAppEvents(store, api);
    await store.getState().loadSettings();

    await store.getState().startRecording();
    expect(store.getState().recordingError).toBeNull();
    expect(store.getState().capture?.device?.label).toBe('Desk mic');
    // Main counts the audio it was given: 20 chunks = 2 s.
    await expect.poll(() => store.getState().recorder?.elapsedMs, { timeout: 10_000 }).toBe(2_000);

    await store.getState().endRecording();
    // The microphone is off before main is told the visit ended, so no chunk arrives after End.
    expect(log).toEqual(['microphone on', 'microphone off (main told to end: false)']);
    expect(api.calls.at(-1)).toBe('recorder.end');
    expect(['ending', 'ended']).toContain(store.getState().recorder?.state);

    // Main reports the service's progress; once it is over the store fetches the results, once.
    await expect.poll(() => store.getState().results?.done, { timeout: 30_000 }).toBe(true);
    expect(store.getState().results?.status).toBe(store.getState().progress?.status);
    expect(api.calls.filter((verb) => verb === 'results.get')).toHaveLength(1);
  });

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
    const openedFirst: (boolean | undefined)[] = [];
    const waitedFor: unknown[] = [];
    const store = createAppStore(api, {
      ...microphone,
      start: async (deps) => {
        openedFirst.push(deps.microphoneFirst);
        // The graph may get ready at once, but the microphone waits for main's answer to attach.
        waitedFor.push(await deps.microphoneMayOpen);
        return microphone.start(deps);
      },
    });
    bindAppEvents(store, api);
    await store.getState().loadSettings();
    await store.getState().rejoinRecording();
    // Every ms of waiting is audio missing: the microphone opens before the voice model loads.
    expect(openedFirst).toEqual([true]);
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

  it('pauses and resumes in main, and discarding turns the microphone off and cancels the visit', async () => {
    const log: string[] = [];
    const api = inProcessApi(core);
    const store = createAppStore(api, scriptedMicrophone(5, log, api.calls));
    await store.getState().loadSettings();
    bindAppEvents(store, api);
    await store.getState().startRecording();
    await expect.poll(() => store.getState().recorder?.state, { timeout: 10_000 }).toBe('streaming');
    expect(store.getState().pausedAt).toBeNull();
    const before = Date.now();
    await store.getState().pauseRecording();
    expect(store.getState().recorder?.state).toBe('paused');
    // The pause's length is measured from when it began, also across main's later reports.
    const pausedAt = store.getState().pausedAt!;
    expect(pausedAt).toBeGreaterThanOrEqual(before);
    store.getState().receiveRecorderView({ ...store.getState().recorder!, elapsedMs: 9 });
    expect(store.getState().pausedAt).toBe(pausedAt);
    await store.getState().resumeRecording();
    expect(store.getState().recorder?.state).not.toBe('paused');
    expect(store.getState().pausedAt).toBeNull();
    await store.getState().cancelRecording();
    expect(log).toEqual(['microphone on', 'microphone off (main told to end: false)']);
    expect(store.getState().recorder?.state).toBe('cancelled');
    expect(store.getState().recordingError).toBeNull();
  });

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

  it('checks the visit details before anything is sent, then starts the visit main was asked for', async () => {
    const log: string[] = [];
    const api = inProcessApi(core);
    const store = createAppStore(api, scriptedMicrophone(3, log, api.calls));
    bindAppEvents(store, api);
    await store.getState().loadSettings();
    // Issue 31: an ID as the EHR prints it is taken (its letters and digits are sent); one with
    // nothing of them is refused by name.
    store.getState().editDraft({ encounterId: '--/--', dateOfBirth: '2999-01-01' });
    await store.getState().startRecording();
    expect(store.getState().draftProblems).toEqual({
      encounterId:
        'Encounter ID must have at least one letter or digit (A–Z, a–z, 0–9): the service takes only those.',
      'context.patient_info.date_of_birth': 'Date of birth must be a real date, not in the future.',
    });
    // The problems are said beside Start from draftProblems, for as long as they hold (issue 31):
    // no copy of them stays behind in recordingError once they are fixed.
    expect(store.getState().recordingError).toBeNull();
    expect(api.calls).toEqual(['settings.get']);
    expect(log).toEqual([]);

    // A problem goes as soon as its field is fixed, and stays while it is not; the others stay
    // until they are fixed or the next Start.
    store.getState().editDraft({ encounterId: 'bed 12' });
    expect(Object.keys(store.getState().draftProblems)).toEqual(['context.patient_info.date_of_birth']);
    store.getState().editDraft({ dateOfBirth: '2998-01-01' });
    expect(Object.keys(store.getState().draftProblems)).toEqual(['context.patient_info.date_of_birth']);
    store.getState().editDraft({
      dateOfBirth: '1961-04-09',
      sex: 'FEMALE',
      forms: [{ kind: 'template', templateId: 'VITALS_ASSESSMENT' }],
    });
    expect(store.getState().draftProblems).toEqual({});
    await store.getState().startRecording();
    expect(store.getState().recordingError).toBeNull();
    expect(store.getState().recorder).toMatchObject({ encounterId: 'bed12', kind: 'ambient' });
    // The visit has a form-filling session: main accepts another form for it.
    await api.call('encounter.addForms', { formItems: [{ form_template_id: 'SKIN_ASSESSMENT' }] });
    await store.getState().endRecording();
    // The next visit: a new id, no patient, the same forms.
    const next = store.getState().draft!;
    expect(next.encounterId).toMatch(/^demo\d{14}$/);
    expect([next.dateOfBirth, next.sex]).toEqual(['', '']);
    expect(next.forms).toEqual([{ kind: 'template', templateId: 'VITALS_ASSESSMENT' }]);
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

  it('measures a backlog against its largest size since it last emptied', () => {
    const store = createAppStore(inProcessApi(core));
    const view = { state: 'reconnecting' as const, elapsedMs: 0, speech: false, backlogMs: 0 };
    for (const backlogMs of [4_000, 10_000, 6_000, 2_500])
      store.getState().receiveRecorderView({ ...view, backlogMs });
    expect(store.getState().backlogPeakMs).toBe(10_000);
    store.getState().receiveRecorderView({ ...view, backlogMs: 0 });
    store.getState().receiveRecorderView({ ...view, backlogMs: 1_000 });
    expect(store.getState().backlogPeakMs).toBe(1_000);
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
