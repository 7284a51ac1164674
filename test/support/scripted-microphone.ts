import { syntheticSpeech } from '../../sandbox/test-support/service-client';
import { encodeAudioChunk } from '../../src/shared/contract';
import type { CaptureDeps } from '../../src/renderer/audio/capture-types';
import type { MicrophoneAccess } from '../../src/renderer/store/microphone-access';

/**
 * A microphone that sends `chunks` 100 ms chunks of speech as soon as it starts: the recording
 * store's tests (recording-store*.test.ts) use it, through the store's chunk channel, because the
 * real one needs a browser (e2e/capture.spec.ts covers it).
 */
export function scriptedMicrophone(chunks: number, log: string[], calls: string[] = []): MicrophoneAccess {
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
