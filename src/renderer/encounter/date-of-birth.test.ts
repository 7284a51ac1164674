import { describe, expect, it } from 'vitest';
import { ageInYears, dateInWords, readDateOfBirth } from './date-of-birth';
import { describePatient } from './patient';

const TODAY = '2026-11-24';
const read = (typed: string, locale = 'en-GB') => readDateOfBirth(typed, TODAY, locale);

describe('a date of birth as people type it', () => {
  it('reads the ISO form, the locale’s numeric order and month names', () => {
    for (const typed of [
      '1961-04-09',
      '1961/4/9',
      '9 Apr 1961',
      '9 April 1961',
      'April 9, 1961',
      'apr 9 1961',
      '9th April 1961',
    ])
      expect(read(typed), typed).toEqual({ kind: 'date', iso: '1961-04-09' });
    // Day first where the locale writes it so; month first in the US.
    expect(read('09/04/1961', 'en-GB')).toEqual({ kind: 'date', iso: '1961-04-09' });
    expect(read('9.4.1961', 'de-DE')).toEqual({ kind: 'date', iso: '1961-04-09' });
    expect(read('04/09/1961', 'en-US')).toEqual({ kind: 'date', iso: '1961-04-09' });
    expect(read('4/9/1961', 'en-US')).toEqual({ kind: 'date', iso: '1961-04-09' });
    // A number above 12 is the day in any locale.
    expect(read('25/12/1961', 'en-US')).toEqual({ kind: 'date', iso: '1961-12-25' });
    expect(read('12/25/1961', 'en-GB')).toEqual({ kind: 'date', iso: '1961-12-25' });
  });

  it('names what is wrong: a short year, an unknown form, a date that does not exist or is ahead', () => {
    expect(read('9/4/61')).toEqual({
      kind: 'problem',
      problem: 'Date of birth needs the year in full, for example 1961.',
    });
    expect(read('ninth of April')).toEqual({
      kind: 'problem',
      problem: 'Date of birth must be a date such as 1961-04-09, 9 Apr 1961 or 09/04/1961.',
    });
    expect(read('soon', 'en-US')).toMatchObject({ problem: expect.stringContaining('or 04/09/1961.') });
    expect(read('1961-02-30')).toEqual({
      kind: 'problem',
      problem: 'Date of birth must be a real date, not in the future.',
    });
    expect(read('2026-11-25')).toMatchObject({ kind: 'problem' });
    expect(read('2026-11-24')).toEqual({ kind: 'date', iso: '2026-11-24' });
    expect(read('   ')).toEqual({ kind: 'empty' });
  });

  it('shows the date understood in words, and the age on the day', () => {
    expect(dateInWords('1961-04-09', 'en-GB')).toBe('9 April 1961');
    expect(dateInWords('1961-04-09', 'en-US')).toBe('April 9, 1961');
    expect(ageInYears('1961-04-09', TODAY)).toBe(65);
    expect(ageInYears('1961-11-25', TODAY)).toBe(64);
    expect(ageInYears('1961-11-24', TODAY)).toBe(65);
    expect(describePatient({ dateOfBirth: '1961-04-09', sex: 'FEMALE' }, TODAY, 'en-GB')).toBe(
      'Female · 65 years · born 9 April 1961',
    );
    expect(describePatient({ sex: 'UNKNOWN' }, TODAY)).toBeUndefined();
    expect(describePatient({}, TODAY)).toBeUndefined();
  });
});
