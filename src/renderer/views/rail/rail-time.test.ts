import { describe, expect, it } from 'vitest';
import { railTime } from './rail-time';

describe('the rail’s times (issue 31)', () => {
  const now = new Date(2026, 10, 22, 17, 30);

  it('a visit of today reads as its time of day alone', () => {
    expect(railTime(new Date(2026, 10, 22, 14, 5).getTime(), now, 'en-GB')).toBe('14:05');
    expect(railTime(new Date(2026, 10, 22, 9, 5).getTime(), now, 'en-US')).toBe('9:05 AM');
  });

  it('an earlier one says its day too, never its year', () => {
    expect(railTime(new Date(2026, 10, 21, 14, 5).getTime(), now, 'en-GB')).toBe('21 Nov, 14:05');
    expect(railTime(new Date(2025, 10, 22, 14, 5).getTime(), now, 'en-US')).toBe('Nov 22, 2:05 PM');
  });
});
