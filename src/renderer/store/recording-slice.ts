import type { StateCreator } from 'zustand/vanilla';
import type { RecorderView, ScribeApi, StartEncounter } from '../../shared/contract';
import type { Settings } from '../../shared/settings';
import type { CaptureSession, CaptureStatus, MicrophoneCheck, SharedCall } from '../audio/capture-types';
import type { InputDevice } from '../audio/device-choice';

import type { AppState } from './app-store';
import { createCallSharing, type CallSharingSlice } from './call-sharing';
import { createLevelFeed, type LevelFeed } from './level-feed';
import type { MicCheckState, MicrophoneAccess, OpenHow } from './microphone-access';
import { RECORDING_STATES, REJOINED_NOTICE } from './recording-states';

export interface RecordingSlice extends CallSharingSlice {
  /** Main's recorder, as the last recorder.changed said. */
  recorder: RecorderView | null;
  capture: CaptureStatus | null;
  /** The latest chunk's level and speech flag, ten times a second while recording (level-feed.ts). */
  readonly levelFeed: LevelFeed;
  /** A sentence when starting or ending failed. */
  recordingError: string | null;
  /** Start was pressed and the microphone is being asked for (the system may be asking the clinician). */
  openingMicrophone: boolean;
  /** Something the clinician should know about this recording (the window reloaded mid-visit). */
  recordingNotice: string | null;
  /**
   * Since when (this window's clock) the rejoined recording waits for a press: the browser lets
   * its audio start only after one (capture-graph.ts); null when it does not wait.
   */
  pressNeededSince: number | null;
  /** The press itself: the rejoined recording's microphone turns on again. */
  turnMicrophoneOn(): Promise<void>;
  /** Microphones to choose from. */
  inputs: InputDevice[];
  micCheck: MicCheckState;
  /** This window's clock when the clinician's pause began; null when not paused by the clinician. */
  pausedAt: number | null;
  /** The largest backlog since it last emptied, ms: how much of it is sent shows as a share. */
  backlogPeakMs: number;
  /** Opens the chosen microphone and shows its level (in `level`) until stopped or Start. */
  startMicCheck(): Promise<void>;
  stopMicCheck(): Promise<void>;
  refreshInputs(): Promise<void>;
  /** The next visit's voice model loads now, while nothing records (MicrophoneAccess). */
  prepareVoiceDetection(): void;
  /** Keeps `inputs` current across hot-plugs until the returned function is called. */
  watchInputs(): () => void;
  /** Remembers the clinician's microphone ('' = system default) and switches to it if recording. */
  chooseMicrophone(device: InputDevice): Promise<void>;
  /**
   * `microphoneOnly`: this one visit records the microphone alone, whatever visitAudio says (a
   * telehealth visit whose call's sound could not be shared: the policy may lock the choice, and
   * the visit must still be recordable).
   */
  startRecording(options?: { microphoneOnly?: boolean }): Promise<void>;
  /**
   * On load: if main is recording a visit (this window reloaded, or its renderer crashed and came
   * back), the microphone is opened again and the recording carries on, with a notice. Main is
   * asked at once; the microphone opens once `settingsLoaded` has them (it names the microphone).
   */
  rejoinRecording(settingsLoaded?: Promise<unknown>): Promise<void>;
  /** The clinician's pause (privacy): main stops sending audio until Resume. */
  pauseRecording(): Promise<void>;
  resumeRecording(): Promise<void>;
  /** Discards the visit: the microphone stops and main cancels the service session. */
  cancelRecording(): Promise<void>;
  endRecording(): Promise<void>;
  receiveRecorderView(view: RecorderView): void;
}

export const createRecordingSlice =
  (
    api: ScribeApi,
    microphones: MicrophoneAccess,
    now: () => number = Date.now,
  ): StateCreator<AppState, [], [], RecordingSlice> =>
  (set, get) => {
    const levelFeed = createLevelFeed();
    // The microphone of the visit being recorded, from the moment Start is pressed: a choice, End or
    // Cancel made while it is still opening waits for it instead of missing it (a choice made then
    // was lost, and the microphone stayed on after an early Cancel).
    let capture: Promise<CaptureSession | undefined> | undefined;
    const calls = createCallSharing(set, microphones, () => capture);

    /** Takes the running capture out of the store, so nothing else uses it, and turns it off. */
    // The running mic check, from the moment it was asked for (Start and Stop may come while it opens).
    let check: Promise<MicrophoneCheck | undefined> | undefined;
    // What starts the rejoined capture, from the press the browser waits for (pressNeededSince).
    let startOnPress: (() => Promise<void>) | undefined;
    const pressed = async () => {
      const start = startOnPress;
      startOnPress = undefined;
      set({ pressNeededSince: null });
      await start?.();
    };

    async function stopCapture(options: { sendTail?: boolean } = {}): Promise<void> {
      const running = capture;
      capture = undefined;
      await (await running)?.stop(options);
    }

    /** The visit's microphone, its chunks to main, its status and level to the screen. */
    function openCapture(settings: Settings, how: OpenHow = {}): Promise<CaptureSession> {
      return microphones.start({
        sendChunk: (message) => api.sendChunk(message),
        settings,
        ...how,
        onStatus: (status) => {
          set({ capture: status });
          // Labels appear once the microphone is open (permission granted).
          if (status.state === 'recording') void get().refreshInputs();
        },
        onLevel: (level) => levelFeed.publish(level),
      });
    }

    /** Starts the visit at main, then opens its microphone; a microphone that fails cancels it. */
    async function startVisitAndCapture(
      settings: Settings,
      request: StartEncounter,
      call: SharedCall | undefined,
    ): Promise<CaptureSession | undefined> {
      try {
        const view = await api.call('encounter.start', request);
        get().receiveRecorderView(view);
        const patient = request.kind === 'ambient' ? request.context?.patient_info : undefined;
        if (view.sessionId)
          set({
            patient: {
              sessionId: view.sessionId,
              ...(patient?.date_of_birth ? { dateOfBirth: patient.date_of_birth } : {}),
              ...(patient?.sex ? { sex: patient.sex } : {}),
            },
          });
      } catch (error) {
        // Nothing started (the service refused or could not be reached): nothing to undo.
        set({ recordingError: (error as Error).message });
        return undefined;
      }
      try {
        return await openCapture(settings, call ? { call } : {});
      } catch (error) {
        // The microphone would not open: the service session must not wait for audio that never comes.
        await api.call('recorder.cancel').catch(() => undefined);
        set({ recordingError: (error as Error).message });
        return undefined;
      }
    }

    /** Calls a recorder verb; its answer is the new recorder view, its failure a sentence. */
    async function verb(call: () => Promise<RecorderView>): Promise<void> {
      try {
        get().receiveRecorderView(await call());
        set({ recordingError: null });
      } catch (error) {
        set({ recordingError: (error as Error).message });
      }
    }

    return {
      recorder: null,
      capture: null,
      levelFeed,
      recordingError: null,
      openingMicrophone: false,
      ...calls.slice,
      recordingNotice: null,
      pressNeededSince: null,
      turnMicrophoneOn: pressed,
      inputs: [],
      micCheck: { state: 'off' },
      pausedAt: null,
      backlogPeakMs: 0,

      async startMicCheck() {
        if (check || capture) return;
        const settings = get().settings as Settings;
        set({ micCheck: { state: 'starting' } });
        levelFeed.publish(null);
        const opening = microphones
          .check(settings, (level) => levelFeed.publish({ ...level, speech: false }))
          .then(
            (opened) => {
              // Stopped while it opened: close it at once.
              if (check !== opening) {
                void opened.stop();
                return undefined;
              }
              set({
                micCheck: {
                  state: 'on',
                  device: opened.device,
                  ...(opened.notice ? { notice: opened.notice } : {}),
                },
              });
              void get().refreshInputs();
              return opened;
            },
            (error: unknown) => {
              if (check === opening) {
                check = undefined;
                set({ micCheck: { state: 'failed', problem: (error as Error).message } });
              }
              return undefined;
            },
          );
        check = opening;
        await opening;
      },

      async stopMicCheck() {
        const running = check;
        check = undefined;
        if (get().micCheck.state !== 'failed') set({ micCheck: { state: 'off' } });
        await (await running)?.stop();
      },
      receiveRecorderView(view) {
        const paused = view.state === 'paused';
        set({
          recorder: view,
          pausedAt: paused ? (get().pausedAt ?? now()) : null,
          backlogPeakMs: view.backlogMs === 0 ? 0 : Math.max(get().backlogPeakMs, view.backlogMs),
        });
      },

      async refreshInputs() {
        set({ inputs: await microphones.listInputs().catch(() => []) });
      },

      prepareVoiceDetection: () => microphones.prepareVoiceDetection?.(),

      watchInputs() {
        void get().refreshInputs();
        return microphones.onDeviceChange(() => void get().refreshInputs());
      },

      async chooseMicrophone(device) {
        const microphone = { deviceId: device.deviceId, label: device.label };
        if (!(await get().saveSettings({ microphone }))) return;
        if (check) {
          // The check follows the choice: the clinician hears the one they picked.
          await get().stopMicCheck();
          await get().startMicCheck();
        }
        await (await capture)?.useMicrophone(microphone);
      },

      async startRecording(options = {}) {
        if (capture) return;
        const saved = get().settings as Settings;
        const settings: Settings = options.microphoneOnly ? { ...saved, visitAudio: 'room' } : saved;
        // The visit details are checked before anything is sent or the microphone opens.
        const encounter = get().checkedEncounter();
        if (!encounter.ok) {
          // The problems are the draft's (draftProblems), said beside Start for as long as they
          // hold: fixing a field takes its sentence away (issue 31), which a copy here would not.
          set({ recordingError: null });
          return;
        }
        // The recording takes the microphone over from the check.
        await get().stopMicCheck();
        set({
          recordingError: null,
          recordingNotice: null,
          callNotShared: false,
          micCheck: { state: 'off' },
        });
        levelFeed.publish(null);
        get().clearResults();
        const starting = (async (): Promise<CaptureSession | undefined> => {
          // A telehealth visit asks for the call's sound first, while the press that started it
          // still counts as the clinician's (browsers share a screen's sound only then); not shared,
          // no visit is created, as for a microphone refused.
          let call: SharedCall | undefined;
          if (settings.visitAudio === 'telehealth') {
            call = await calls.askAtStart();
            if (!call) return undefined;
          }
          let releaseAccess: () => void;
          try {
            // The microphone first: denied or missing, the clinician is told once and no visit is
            // created at the service or in History.
            set({ openingMicrophone: true });
            releaseAccess = await microphones.ensureAccess(settings);
          } catch (error) {
            call?.stop();
            set({ recordingError: (error as Error).message });
            return undefined;
          } finally {
            set({ openingMicrophone: false });
          }
          try {
            const session = await startVisitAndCapture(settings, encounter.request, call);
            // Nothing records it (the service refused, the microphone failed): the sharing ends.
            if (!session) call?.stop();
            return session;
          } finally {
            releaseAccess();
          }
        })();
        capture = starting;
        if (!(await starting) && capture === starting) capture = undefined;
      },

      async rejoinRecording(settingsLoaded = Promise.resolve()) {
        // This page already captures (the contract link only blinked): nothing to rejoin.
        if (capture) return;
        // Asked beside the settings, not after them: every round trip before the microphone opens
        // is audio the visit misses (issue 36: a reload's gap grew past 1.5 s on a busy machine).
        let view: RecorderView;
        try {
          [view] = await Promise.all([api.call('recorder.state'), settingsLoaded]);
        } catch {
          return;
        }
        const settings = get().settings;
        if (!settings) return;
        get().receiveRecorderView(view);
        if (!RECORDING_STATES.has(view.state) || capture) return;
        const rejoining = (async (): Promise<CaptureSession | undefined> => {
          // Main hears of the new capture (its chunks number from 0 again, which main accepts only
          // once told so) while the graph gets ready; the microphone opens once it has.
          const attached = api.call('recorder.attach');
          // The settings hold the microphone the visit was using (a choice made while recording is
          // saved too), so the same device opens again.
          const opening = openCapture(settings, {
            microphoneMayOpen: attached,
            onPressNeeded: (start) => {
              startOnPress = start;
              set({ pressNeededSince: now() });
            },
          });
          try {
            get().receiveRecorderView(await attached);
          } catch {
            void opening.catch(() => undefined);
            return undefined; // the visit ended meanwhile: no microphone opens
          }
          try {
            const session = await opening;
            set({ recordingNotice: REJOINED_NOTICE, recordingError: null });
            return session;
          } catch (error) {
            set({
              recordingError: `The window reloaded and the microphone could not be opened again: ${(error as Error).message}`,
            });
            return undefined;
          }
        })();
        capture = rejoining;
        if (!(await rejoining) && capture === rejoining) capture = undefined;
      },

      async pauseRecording() {
        await verb(() => api.call('recorder.pause'));
      },

      async resumeRecording() {
        await verb(() => api.call('recorder.resume'));
      },

      async cancelRecording() {
        set({ recordingNotice: null });
        // A rejoin waiting for a press gets it from this one: its capture must open to be closed.
        void pressed();
        await stopCapture();
        await verb(() => api.call('recorder.cancel'));
        get().nextVisit();
      },

      async endRecording() {
        // Every captured chunk is on its way to main before main is told the visit ended, the
        // audio since the last full chunk included (a last word must not be clipped).
        set({ recordingNotice: null });
        // End is a press too: a rejoin waiting for one starts and ends now (the first press works).
        void pressed();
        await stopCapture({ sendTail: true });
        const sessionId = get().recorder?.sessionId;
        // Before the verb: main reports the visit's progress (offline, say) while it answers.
        if (sessionId) get().expectResults(sessionId);
        await verb(() => api.call('recorder.end'));
        if (get().recordingError) get().clearResults();
        get().nextVisit();
      },
    };
  };
