import { describe, expect, it } from 'vitest';
import { recordingTitle } from './recording-title';

describe('recordingTitle', () => {
  it('says the state alone in the first minute', () => {
    expect(recordingTitle(false, 0, 'Ambient Scribe')).toBe('● Recording — Ambient Scribe');
    expect(recordingTitle(true, 0, 'Ambient Scribe')).toBe('● Paused — Ambient Scribe');
  });

  it('counts whole minutes after that (the window shows the seconds)', () => {
    expect(recordingTitle(false, 1, 'Ambient Scribe')).toBe('● Recording 1 min — Ambient Scribe');
    expect(recordingTitle(true, 12, 'Ambient Scribe')).toBe('● Paused 12 min — Ambient Scribe');
    expect(recordingTitle(false, 90, 'A')).toBe('● Recording 90 min — A');
  });
});
