import { describe, expect, it } from 'vitest';
import { formatOffset, noteText, sectionText } from './format';

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

  it('copies a section as its content alone, and the note as titled sections with blank lines between', () => {
    const sections = [
      { title: 'Chief complaint', content: ' Chest pain on stairs.\n' },
      { title: 'Plan', content: 'EKG and blood work.' },
    ];
    expect(sectionText(sections[0]!)).toBe('Chest pain on stairs.');
    expect(noteText(sections)).toBe('Chief complaint\nChest pain on stairs.\n\nPlan\nEKG and blood work.');
    // The service may send a standard section by its code: it is shown and copied by its name.
    expect(noteText([{ title: 'HISTORY_OF_PRESENT_ILLNESS', content: 'Two days.' }])).toBe(
      'History of present illness\nTwo days.',
    );
  });
});
