import { describe, expect, it } from 'vitest';
import { recordingTitle } from './recording-title';

describe('recordingTitle', () => {
  it('says the state alone in the first minute', () => {
    expect(recordingTitle(false, 0, 'Ambient Scribe')).toBe('● Recording — Ambient Scribe');
    expect(recordingTitle(false, 59, 'Ambient Scribe')).toBe('● Recording — Ambient Scribe');
    expect(recordingTitle(true, 12, 'Ambient Scribe')).toBe('● Paused — Ambient Scribe');
  });

  it('counts whole minutes after that, so it changes once a minute, not once a second', () => {
    expect(recordingTitle(false, 60, 'Ambient Scribe')).toBe('● Recording 1 min — Ambient Scribe');
    expect(recordingTitle(false, 119, 'Ambient Scribe')).toBe('● Recording 1 min — Ambient Scribe');
    expect(recordingTitle(true, 12 * 60 + 30, 'Ambient Scribe')).toBe('● Paused 12 min — Ambient Scribe');
    const titles = new Set(Array.from({ length: 600 }, (_, s) => recordingTitle(false, s, 'A')));
    expect(titles.size).toBe(10);
  });
});
