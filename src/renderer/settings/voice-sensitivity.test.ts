import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, voiceDetectionSchema } from '../../shared/settings';
import { SENSITIVITIES, sensitivityOf, withSensitivity } from './voice-sensitivity';

describe('voice detection sensitivity', () => {
  it('Medium is the default tuning', () => {
    expect(sensitivityOf(DEFAULT_SETTINGS.voiceDetection)).toBe('medium');
  });

  it('every preset is valid voice detection, keeps the rest of the tuning, and is recognised again', () => {
    for (const sensitivity of SENSITIVITIES) {
      const voice = withSensitivity(DEFAULT_SETTINGS.voiceDetection, sensitivity);
      expect(voiceDetectionSchema.safeParse(voice).success).toBe(true);
      expect(voice.redemptionMs).toBe(DEFAULT_SETTINGS.voiceDetection.redemptionMs);
      expect(sensitivityOf(voice)).toBe(sensitivity);
    }
  });

  it('higher sensitivity starts speech at a lower probability', () => {
    const start = (s: (typeof SENSITIVITIES)[number]) =>
      withSensitivity(DEFAULT_SETTINGS.voiceDetection, s).positiveSpeechThreshold;
    expect(start('high')).toBeLessThan(start('medium'));
    expect(start('medium')).toBeLessThan(start('low'));
  });

  it('hand-tuned thresholds are no preset', () => {
    expect(sensitivityOf({ positiveSpeechThreshold: 0.3, negativeSpeechThreshold: 0.1 })).toBeUndefined();
  });
});
