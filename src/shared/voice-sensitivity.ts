import type { VoiceDetectionSettings } from './settings';

/** Voice detection as a clinician (or IT, in a policy) chooses it: three presets of the thresholds. */
export const SENSITIVITIES = ['low', 'medium', 'high'] as const;
export type Sensitivity = (typeof SENSITIVITIES)[number];

type Thresholds = Pick<VoiceDetectionSettings, 'positiveSpeechThreshold' | 'negativeSpeechThreshold'>;

/**
 * Medium is the default tuning (DEFAULT_SETTINGS: a quiet exam room through Chromium's
 * resampling). Low asks more of a sound before it counts as speech, for a noisy room; High
 * catches a soft voice sooner, for a quiet speaker. Each keeps the end threshold below the start
 * so a voice at the threshold does not flicker.
 */
export const SENSITIVITY_PRESETS: Record<Sensitivity, Thresholds> = {
  low: { positiveSpeechThreshold: 0.4, negativeSpeechThreshold: 0.25 },
  medium: { positiveSpeechThreshold: 0.2, negativeSpeechThreshold: 0.1 },
  high: { positiveSpeechThreshold: 0.1, negativeSpeechThreshold: 0.05 },
};

/** The preset these thresholds are, or undefined when they were tuned by hand. */
export function sensitivityOf(voice: Thresholds): Sensitivity | undefined {
  return SENSITIVITIES.find(
    (s) =>
      SENSITIVITY_PRESETS[s].positiveSpeechThreshold === voice.positiveSpeechThreshold &&
      SENSITIVITY_PRESETS[s].negativeSpeechThreshold === voice.negativeSpeechThreshold,
  );
}

/** The voice detection settings with a preset's thresholds (the other tuning is kept). */
export function withSensitivity(
  voice: VoiceDetectionSettings,
  sensitivity: Sensitivity,
): VoiceDetectionSettings {
  return { ...voice, ...SENSITIVITY_PRESETS[sensitivity] };
}
