import { isPastIsoDate } from '../../shared/service';

/**
 * A date of birth as people type it (issue 17): 1961-04-09, 04/09/1961 or 9/4/1961 read in the
 * system locale's order (month first in en-US, day first in en-GB and most others), 9 Apr 1961,
 * April 9, 1961. The service wants YYYY-MM-DD; the screen shows the date it understood in words
 * before the visit starts, so a swapped day and month is seen, not sent.
 */
export type DateOfBirthReading =
  { kind: 'empty' } | { kind: 'date'; iso: string } | { kind: 'problem'; problem: string };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export const DATE_OF_BIRTH_FORMS = 'a date such as 1961-04-09, 9 Apr 1961 or';

/** Whether the locale writes a numeric date month first (en-US: 4/9/1961 is 9 April). */
export function monthFirst(locale: string | undefined): boolean {
  const parts = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric', year: 'numeric' })
    .formatToParts(new Date(2000, 10, 22))
    .filter((part) => part.type === 'day' || part.type === 'month');
  return parts[0]?.type === 'month';
}

/** The numeric example for the locale, for hints and problems: 04/09/1961 or 09/04/1961. */
export function numericExample(locale: string | undefined): string {
  return monthFirst(locale) ? '04/09/1961' : '09/04/1961';
}

const pad = (n: number) => String(n).padStart(2, '0');

function monthNumber(word: string): number | undefined {
  const index = MONTHS.indexOf(word.slice(0, 3).toLowerCase());
  return index === -1 ? undefined : index + 1;
}

/** The numbers and month name typed, as year, month and day; undefined when no form fits. */
function readParts(
  text: string,
  locale: string | undefined,
): [number, number, number] | 'short-year' | undefined {
  const iso = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text);
  if (iso) return [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  const numeric = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})$/.exec(text);
  if (numeric) {
    if (numeric[3]!.length === 2) return 'short-year';
    const [a, b, year] = [Number(numeric[1]), Number(numeric[2]), Number(numeric[3])];
    // A number above 12 can only be the day, whatever the locale.
    if (a > 12 && b <= 12) return [year, b, a];
    if (b > 12 && a <= 12) return [year, a, b];
    return monthFirst(locale) ? [year, a, b] : [year, b, a];
  }
  const dayFirst = /^(\d{1,2})(?:st|nd|rd|th)?[\s.-]+([a-z]+)\.?,?[\s.-]+(\d{2,4})$/i.exec(text);
  const wordFirst = /^([a-z]+)\.?[\s.-]+(\d{1,2})(?:st|nd|rd|th)?,?[\s.-]+(\d{2,4})$/i.exec(text);
  const named = dayFirst
    ? { day: dayFirst[1]!, month: dayFirst[2]!, year: dayFirst[3]! }
    : wordFirst
      ? { day: wordFirst[2]!, month: wordFirst[1]!, year: wordFirst[3]! }
      : undefined;
  if (!named) return undefined;
  const month = monthNumber(named.month);
  if (!month) return undefined;
  if (named.year.length !== 4) return 'short-year';
  return [Number(named.year), month, Number(named.day)];
}

/** Reads what was typed; `today` is the local date as YYYY-MM-DD. */
export function readDateOfBirth(typed: string, today: string, locale?: string): DateOfBirthReading {
  const text = typed.trim().replace(/\s+/g, ' ');
  if (text === '') return { kind: 'empty' };
  const parts = readParts(text, locale);
  if (parts === 'short-year')
    return { kind: 'problem', problem: 'Date of birth needs the year in full, for example 1961.' };
  if (!parts)
    return {
      kind: 'problem',
      problem: `Date of birth must be ${DATE_OF_BIRTH_FORMS} ${numericExample(locale)}.`,
    };
  const [year, month, day] = parts;
  const iso = `${year}-${pad(month)}-${pad(day)}`;
  if (!isPastIsoDate(iso, today))
    return { kind: 'problem', problem: 'Date of birth must be a real date, not in the future.' };
  return { kind: 'date', iso };
}

/** "9 April 1961" in the locale's words: the date as understood, with no digit order to misread. */
export function dateInWords(iso: string, locale?: string): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, month - 1, day)));
}

/** Whole years from the date of birth to `today` (both YYYY-MM-DD). */
export function ageInYears(iso: string, today: string): number {
  const [by, bm, bd] = iso.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}
