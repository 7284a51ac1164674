import type { Settings } from '../../shared/settings';
import type { MicrophoneCheck } from './capture-types';
import { measureFloatLevel, type AudioLevel } from './level-meter';
import { openMicrophone } from './microphone';

/**
 * A mic check before the visit: the chosen microphone, opened as recording will open it, with its
 * level ten times a second. Nothing is recorded or sent; no worklet and no voice model, only an
 * AnalyserNode, so it costs next to nothing and leaves the device free when stopped.
 */
export async function checkMicrophone(
  settings: Pick<Settings, 'microphone' | 'audioProcessing'>,
  onLevel: (level: AudioLevel) => void,
): Promise<MicrophoneCheck> {
  const mic = await openMicrophone(settings);
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 2_048;
  context.createMediaStreamSource(mic.stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    onLevel(measureFloatLevel(samples));
  }, 100);
  return {
    device: mic.device,
    ...(mic.notice ? { notice: mic.notice } : {}),
    async stop() {
      clearInterval(timer);
      mic.track.stop();
      await context.close().catch(() => undefined);
    },
  };
}
