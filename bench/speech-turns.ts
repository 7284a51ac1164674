/**
 * Four turns of a visit in three espeak-ng voices: the speech both resampler benchmarks (Node and
 * Chromium) synthesize, so their figures compare.
 */
export const SPEECH_TURNS: readonly (readonly [voice: string, text: string])[] = [
  ['en-us+klatt', 'Good morning. What brings you in today? I see you were here in March for the same cough.'],
  [
    'en-us+f3',
    'The cough started about three weeks ago. It is worse at night, and I get short of breath on the stairs.',
  ],
  [
    'en-us+klatt',
    'Any fever, chills, or chest pain? Are you still taking the lisinopril, ten milligrams daily?',
  ],
  [
    'en-gb+f2',
    'No fever. Some chest tightness in the evenings. Yes, I take it every morning with breakfast.',
  ],
];
