import { describe, expect, it } from 'vitest';
import { railEncounterId } from './rail-id';

describe('an encounter ID in the rail', () => {
  it('reads as the EHR prints it, not as the service got it', () => {
    expect(railEncounterId({ encounterId: 'bed12', shownAs: 'bed 12' })).toEqual({
      shown: 'bed 12',
      full: 'bed 12',
    });
    expect(railEncounterId({ encounterId: 'bed12' }).shown).toBe('bed12');
  });

  it('a long one is cut in the middle so the end that tells visits apart shows', () => {
    const ids = ['ENC-2024-000-00871', 'ENC-2024-000-00872', 'ENC-2024-000-00873'].map((id) =>
      railEncounterId({ encounterId: id.replace(/-/g, ''), shownAs: id }),
    );
    expect(ids.map((id) => id.shown)).toEqual(['ENC-…00871', 'ENC-…00872', 'ENC-…00873']);
    expect(ids[0]!.full).toBe('ENC-2024-000-00871');
    expect(new Set(ids.map((id) => id.shown)).size).toBe(3);
  });
});
