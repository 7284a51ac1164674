import type { StateCreator } from 'zustand/vanilla';
import type { RecorderView, ScribeApi } from '../../shared/contract';
import type { Settings } from '../../shared/settings';
import type { CaptureDeps, CaptureLevel, CaptureSession, CaptureStatus } from '../audio/capture-types';
import type { AppState } from './app-store';

/** How the store starts the microphone: the real capture in the app, a fake in store tests. */
export type StartCapture = (
  deps: Pick<CaptureDeps, 'sendChunk' | 'settings' | 'onStatus' | 'onLevel'>,
) => Promise<CaptureSession>;

export interface RecordingSlice {
  /** Main's recorder, as the last recorder.changed said. */
  recorder: RecorderView | null;
  capture: CaptureStatus | null;
  /** The latest chunk's level and speech flag, ten times a second while recording. */
  level: CaptureLevel | null;
  /** A sentence when starting or ending failed. */
  recordingError: string | null;
  startRecording(): Promise<void>;
  endRecording(): Promise<void>;
  receiveRecorderView(view: RecorderView): void;
}

/** Until issue 6's encounter picker: an id from the local date and time (letters and digits only). */
export function encounterIdFor(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `visit${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
}

export const createRecordingSlice =
  (api: ScribeApi, startCapture: StartCapture): StateCreator<AppState, [], [], RecordingSlice> =>
  (set, get) => {
    let session: CaptureSession | undefined;

    return {
      recorder: null,
      capture: null,
      level: null,
      recordingError: null,
      receiveRecorderView: (view) => set({ recorder: view }),

      async startRecording() {
        if (session) return;
        const settings = get().settings as Settings;
        set({ recordingError: null, level: null });
        try {
          set({
            recorder: await api.call('encounter.start', {
              kind: 'ambient',
              encounterId: encounterIdFor(new Date()),
            }),
          });
          session = await startCapture({
            sendChunk: (message) => api.sendChunk(message),
            settings,
            onStatus: (capture) => set({ capture }),
            onLevel: (level) => set({ level }),
          });
        } catch (error) {
          session = undefined;
          // The microphone would not open: the service session must not wait for audio that never comes.
          await api.call('recorder.cancel').catch(() => undefined);
          set({ recordingError: (error as Error).message });
        }
      },

      async endRecording() {
        const running = session;
        session = undefined;
        // Every captured chunk is on its way to main before main is told the visit ended.
        await running?.stop();
        try {
          set({ recorder: await api.call('recorder.end') });
        } catch (error) {
          set({ recordingError: (error as Error).message });
        }
      },
    };
  };
