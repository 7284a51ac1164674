import { describe, expect, it } from 'vitest';
import { formatOffset, sectionText } from './format';

const at = (hours: number, minutes: number, seconds: number) => ({
  hours,
  minutes,
  seconds,
  nanos: 500_000_000,
});

describe('results formatting', () => {
  it('shows transcript times as m:ss, and h:mm:ss past an hour', () => {
    expect(formatOffset(at(0, 0, 4))).toBe('0:04');
    expect(formatOffset(at(0, 12, 30))).toBe('12:30');
    expect(formatOffset(at(1, 2, 3))).toBe('1:02:03');
    // Services may carry minutes over 59 without hours; the reading is the same.
    expect(formatOffset(at(0, 75, 0))).toBe('1:15:00');
  });

  it('copies a section as its content alone', () => {
    expect(sectionText({ title: 'Chief complaint', content: ' Chest pain on stairs.\n' })).toBe(
      'Chest pain on stairs.',
    );
  });
});
