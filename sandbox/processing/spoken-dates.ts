/**
 * Dates for form fields of type "date", as YYYY-MM-DD: spoken ("march fifth twenty twenty four",
 * "the fifth of march two thousand twenty four") or typed ("2024-03-05", "3/5/2024", "March 5 2024").
 * A date without a year is not a date the form can hold, so it is not read.
 */
import { findNumbers } from './spoken-numbers';

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

const ORDINAL_UNITS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
};
const ORDINALS: Record<string, number> = {
  ...ORDINAL_UNITS,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
};

function iso(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  if (!real || year < 1850 || year > 2200) return undefined;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A day of the month at word i: "fifth", "twenty first", "5th", "5", "twenty one". */
function dayAt(words: string[], i: number): { day: number; next: number } | undefined {
  const w = words[i] ?? '';
  const typed = /^(\d{1,2})(st|nd|rd|th)?$/.exec(w);
  if (typed) return { day: Number(typed[1]), next: i + 1 };
  if (w in ORDINALS) return { day: ORDINALS[w] ?? 0, next: i + 1 };
  if ((w === 'twenty' || w === 'thirty') && (words[i + 1] ?? '') in ORDINAL_UNITS) {
    return { day: (w === 'twenty' ? 20 : 30) + (ORDINAL_UNITS[words[i + 1] ?? ''] ?? 0), next: i + 2 };
  }
  const spoken = findNumbers(words.slice(i, i + 2))[0];
  return spoken && spoken.start === 0 && spoken.value <= 31
    ? { day: spoken.value, next: i + spoken.end }
    : undefined;
}

/** A year at word i: "2024", "twenty twenty four", "nineteen sixty one", "two thousand five". */
function yearAt(words: string[], i: number): number | undefined {
  const rest = words.slice(i, i + 5);
  const [first, second] = findNumbers(rest);
  if (!first || first.start !== 0) return undefined;
  if (first.value >= 1000) return first.value;
  if (first.value >= 10 && first.value <= 29) {
    if (second && second.start === first.end && second.value < 100) return first.value * 100 + second.value;
    if (rest[first.end] === 'oh' && second && second.start === first.end + 1 && second.value < 10) {
      return first.value * 100 + second.value;
    }
  }
  return undefined;
}

/** The first date in the words (of one sentence), or undefined. */
export function readDate(words: string[]): string | undefined {
  // Typed numerically: "2024 03 05" (ISO after punctuation is stripped) or "3 over 5 over 2024" (M/D/Y).
  for (let i = 0; i + 2 < words.length; i += 1) {
    const [a = '', b = '', c = ''] = words.slice(i, i + 3);
    if (/^\d{4}$/.test(a) && /^\d{1,2}$/.test(b) && /^\d{1,2}$/.test(c))
      return iso(Number(a), Number(b), Number(c));
    const slash = words.slice(i, i + 5);
    if (slash[1] === 'over' && slash[3] === 'over' && /^\d{4}$/.test(slash[4] ?? '')) {
      return iso(Number(slash[4]), Number(slash[0]), Number(slash[2]));
    }
  }
  for (let i = 0; i < words.length; i += 1) {
    const month = MONTHS.indexOf(words[i] ?? '') + 1;
    if (month === 0) continue;
    // "march fifth twenty twenty four"
    const after = dayAt(words, i + 1);
    if (after) {
      const year = yearAt(words, words[after.next] === 'of' ? after.next + 1 : after.next);
      if (year !== undefined) return iso(year, month, after.day);
    }
    // "the fifth of march twenty twenty four"
    if (words[i - 1] === 'of') {
      for (const back of [3, 2]) {
        const before = dayAt(words, i - back);
        if (before && before.next === i - 1) {
          const year = yearAt(words, i + 1);
          if (year !== undefined) return iso(year, month, before.day);
        }
      }
    }
  }
  return undefined;
}
