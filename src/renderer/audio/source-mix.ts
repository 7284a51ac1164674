import { measureFloatLevel, type AudioLevel } from './level-meter';

/**
 * The sources of one capture mixed into the capture worklet's one input (issue 30): the
 * microphone and, in a telehealth visit, the call's sound. Each goes MediaStreamSource → its own
 * GainNode → the worklet; Web Audio sums what is connected to an input, so the worklet still sees
 * one mono stream and frames it as before (it only frames: DESIGN.md). The voice detection then
 * classifies the mix, so the patient speaking on the call keeps the recording from auto-pausing.
 */

/**
 * The microphone at unity: a telehealth visit's microphone reaches the service as one in the room
 * does, and the voice detection's thresholds, tuned on the microphone, still hold.
 */
export const MICROPHONE_GAIN = 1;
/**
 * The call at unity too. Calling apps deliver speech already levelled by their own gain control,
 * at or above a microphone's level without it. The e2e found each speaker at the service at its
 * own file's level (within 0.5 dB) and no sample at full scale (e2e/telehealth.spec.ts). Two loud
 * voices at once could clip; the chunker clips at full scale rather than wrap.
 */
export const CALL_GAIN = 1;

/**
 * The analyser's window: 2,048 samples is 128 ms at 16 kHz, so it holds the whole 100 ms chunk
 * the last render quantum completed when the chunk reaches the page (the level is read then).
 */
const ANALYSER_SIZE = 2_048;
/** The meter's share of the window: the last chunk's worth at 16 kHz. */
const LEVEL_SAMPLES = 1_600;

/** One source in the mix. */
export interface MixedSource {
  /** The level of what this source puts into the mix, over the last chunk's time; null: unmeasured. */
  level(): AudioLevel | null;
  disconnect(): void;
}

/**
 * Connects `stream` into `destination` through its own gain. `measured`: with an analyser tap for
 * its own level (a mix's chunks say only the sum); off for the microphone alone in a visit in the
 * room, whose chunks are its level, so that visit costs what it did.
 */
export function mixSource(
  context: AudioContext,
  stream: MediaStream,
  gain: number,
  destination: AudioNode,
  measured: boolean,
): MixedSource {
  const source = context.createMediaStreamSource(stream);
  // The microphone alone at unity needs no node between it and the worklet: a visit in the room
  // renders the graph it always did (bench/capture-app measures both).
  if (gain === 1 && !measured) {
    source.connect(destination);
    return { level: () => null, disconnect: () => source.disconnect() };
  }
  const gainNode = new GainNode(context, { gain, channelCount: 1, channelCountMode: 'explicit' });
  source.connect(gainNode).connect(destination);
  let analyser: AnalyserNode | undefined;
  let samples: Float32Array<ArrayBuffer> | undefined;
  if (measured) {
    analyser = new AnalyserNode(context, { fftSize: ANALYSER_SIZE });
    samples = new Float32Array(ANALYSER_SIZE);
    gainNode.connect(analyser);
  }
  return {
    level() {
      if (!analyser || !samples) return null;
      analyser.getFloatTimeDomainData(samples);
      return measureFloatLevel(samples.subarray(ANALYSER_SIZE - LEVEL_SAMPLES));
    },
    disconnect() {
      source.disconnect();
      gainNode.disconnect();
      analyser?.disconnect();
    },
  };
}
