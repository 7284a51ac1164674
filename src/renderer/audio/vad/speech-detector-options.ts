import {
  DEFAULT_SETTINGS,
  SETTING_LABELS,
  voiceDetectionSchema,
  type VoiceDetectionSettings,
} from '../../../shared/settings';
import { describeProblems } from '../../../shared/validation';

/**
 * The speech detector's tunables are the voice-detection settings (src/shared/settings.ts), so the
 * settings form and the detector apply one set of rules. `minSpeechMs` does not change which chunks
 * are flagged: vad-web raises speech on the first positive frame and uses it only afterwards, to
 * call a finished segment a misfire (a cough, a door).
 */
export type SpeechDetectorOptions = VoiceDetectionSettings;

/** The settings' defaults; see there for how they were chosen. */
export const DEFAULT_SPEECH_DETECTOR_OPTIONS: Readonly<SpeechDetectorOptions> =
  DEFAULT_SETTINGS.voiceDetection;

const PREFIX = 'voiceDetection.';
const LABELS = Object.fromEntries(
  Object.entries(SETTING_LABELS)
    .filter(([path]) => path.startsWith(PREFIX))
    .map(([path, label]) => [path.slice(PREFIX.length), label]),
);

/**
 * Every problem with `options`, each naming the field (as the settings screen names it) and the
 * rule it breaks; empty when the options are usable.
 */
export function validateSpeechDetectorOptions(options: SpeechDetectorOptions): string[] {
  const checked = voiceDetectionSchema.safeParse(options);
  return checked.success ? [] : describeProblems(checked.error, LABELS).map((p) => p.message);
}
