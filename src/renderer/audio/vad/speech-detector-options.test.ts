import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SPEECH_DETECTOR_OPTIONS,
  validateSpeechDetectorOptions,
  type SpeechDetectorOptions,
} from './speech-detector-options';

// The detector's own refusal of unusable options, with a model loaded, is in speech-detector.test.ts.
describe('validateSpeechDetectorOptions', () => {
  const ok = DEFAULT_SPEECH_DETECTOR_OPTIONS;

  it('accepts the defaults and vad-web’s own defaults', () => {
    expect(validateSpeechDetectorOptions(ok)).toEqual([]);
    const vadWeb = {
      positiveSpeechThreshold: 0.3,
      negativeSpeechThreshold: 0.25,
      redemptionMs: 1400,
      minSpeechMs: 400,
    };
    expect(validateSpeechDetectorOptions(vadWeb)).toEqual([]);
  });

  it.each<[Partial<SpeechDetectorOptions>, RegExp]>([
    [{ positiveSpeechThreshold: 0 }, /^Speech start threshold must be between 0.05 and 0.95/],
    [{ positiveSpeechThreshold: 1 }, /^Speech start threshold must be between 0.05 and 0.95/],
    [{ positiveSpeechThreshold: Number.NaN }, /^Speech start threshold must be a number/],
    [{ negativeSpeechThreshold: -0.1 }, /^Speech end threshold must be between 0.05 and 0.95/],
    [
      { negativeSpeechThreshold: ok.positiveSpeechThreshold },
      /^Speech end threshold must be below the speech start threshold/,
    ],
    [{ redemptionMs: -1 }, /^Speech end delay must be between 0 and 5000 ms/],
    [{ redemptionMs: 60_000 }, /^Speech end delay must be between 0 and 5000 ms/],
    [{ minSpeechMs: Number.POSITIVE_INFINITY }, /^Shortest speech must be/],
    [{ minSpeechMs: -5 }, /^Shortest speech must be between 0 and 2000 ms/],
  ])('rejects %j, naming the field and the rule', (change, message) => {
    const problems = validateSpeechDetectorOptions({ ...ok, ...change });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it('reports every problem at once', () => {
    const problems = validateSpeechDetectorOptions({
      positiveSpeechThreshold: 2,
      negativeSpeechThreshold: -1,
      redemptionMs: Number.NaN,
      minSpeechMs: -1,
    });
    expect(problems.map((p) => p.split(' must')[0])).toEqual([
      'Speech start threshold',
      'Speech end threshold',
      'Speech end delay',
      'Shortest speech',
    ]);
  });
});
