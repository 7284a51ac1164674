import { describe, expect, it } from 'vitest';
import { NOTHING_FOUND_CONTENT } from '../../shared/service';
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

  it('gives no text for a section the service found nothing for, never its filler sentence', () => {
    expect(sectionText({ title: 'ALLERGIES', content: NOTHING_FOUND_CONTENT })).toBe('');
    expect(sectionText({ title: 'ALLERGIES', content: ` ${NOTHING_FOUND_CONTENT}\n` })).toBe('');
    expect(sectionText({ title: 'ALLERGIES', content: '  ' })).toBe('');
    // A sentence that only mentions "nothing" is the note's.
    expect(sectionText({ title: 'ALLERGIES', content: 'Nothing relevant: no known allergies.' })).toBe(
      'Nothing relevant: no known allergies.',
    );
  });
});
