/**
 * Numbers as a recognizer writes them ("one hundred twenty", "one twenty", "ninety eight point six",
 * "one oh five") or as typed text writes them ("120", "98.6", "120/80"), turned into values.
 */

import { DIGIT_WORDS, TEEN_WORDS, TENS_WORDS } from '../../src/shared/number-words';

const UNITS = DIGIT_WORDS;
const TEENS = TEEN_WORDS;
const TENS = TENS_WORDS;
const DIGITS = /^\d+(\.\d+)?$/;

export interface NumberMatch {
  value: number;
  /** Index of the first word, and one past the last. */
  start: number;
  end: number;
}

const unit = (w: string | undefined) => (w !== undefined && w in UNITS ? UNITS[w] : undefined);

/** 0–99 from one or two words ("seventy", "seventy two", "fourteen", "7", "72"). */
function belowHundred(words: string[], i: number): { value: number; next: number } | undefined {
  const w = words[i];
  if (w === undefined) return undefined;
  if (DIGITS.test(w) && !w.includes('.') && Number(w) < 100) return { value: Number(w), next: i + 1 };
  if (w in TEENS) return { value: TEENS[w] ?? 0, next: i + 1 };
  if (w in TENS) {
    const u = unit(words[i + 1]);
    return u !== undefined && u > 0
      ? { value: (TENS[w] ?? 0) + u, next: i + 2 }
      : { value: TENS[w] ?? 0, next: i + 1 };
  }
  const u = unit(w);
  return u === undefined ? undefined : { value: u, next: i + 1 };
}

/** Whole numbers up to the thousands: "one hundred (and) twenty", "one twenty", "one oh five", "120". */
function wholeNumber(words: string[], i: number): { value: number; next: number } | undefined {
  const w = words[i];
  if (w !== undefined && DIGITS.test(w)) return { value: Number(w), next: i + 1 };
  // "a hundred", "a thousand"
  const lead =
    w === 'a' && (words[i + 1] === 'hundred' || words[i + 1] === 'thousand')
      ? { value: 1, next: i + 1 }
      : undefined;
  const first = lead ?? belowHundred(words, i);
  if (!first) return undefined;
  let { value, next } = first;

  if (words[next] === 'thousand') {
    value *= 1000;
    next += 1;
    const rest = wholeNumber(words, words[next] === 'and' ? next + 1 : next);
    if (rest && rest.value < 1000) return { value: value + rest.value, next: rest.next };
    return { value, next };
  }
  if (words[next] === 'hundred') {
    value *= 100;
    next += 1;
    const rest = belowHundred(words, words[next] === 'and' ? next + 1 : next);
    return rest ? { value: value + rest.value, next: rest.next } : { value, next };
  }
  // Read in pairs, as blood pressures and temperatures are: "one twenty" = 120, "one oh five" = 105.
  if (first.next === i + 1 && value >= 1 && value <= 9 && !DIGITS.test(w ?? '')) {
    const after = words[next];
    if (after === 'oh') {
      const u = unit(words[next + 1]);
      if (u !== undefined) return { value: value * 100 + u, next: next + 2 };
    } else if (after !== undefined && (after in TEENS || after in TENS)) {
      const pair = belowHundred(words, next);
      if (pair) return { value: value * 100 + pair.value, next: pair.next };
    }
  }
  return { value, next };
}

/** A number starting at word i, with an optional spoken decimal part ("point six", "point two five"). */
export function numberAt(words: string[], i: number): NumberMatch | undefined {
  const whole = wholeNumber(words, i);
  if (!whole) return undefined;
  let { value, next } = whole;
  if (words[next] === 'point') {
    let digits = '';
    let j = next + 1;
    for (let d = unit(words[j]) ?? (words[j] === 'oh' ? 0 : undefined); d !== undefined;) {
      digits += String(d);
      j += 1;
      d = unit(words[j]) ?? (words[j] === 'oh' ? 0 : undefined);
    }
    if (digits) [value, next] = [Number(`${Math.trunc(value)}.${digits}`), j];
  }
  return { value, start: i, end: next };
}

/** Every number in `words`, left to right, each as long as it can be. */
export function findNumbers(words: string[]): NumberMatch[] {
  const found: NumberMatch[] = [];
  for (let i = 0; i < words.length;) {
    const match = numberAt(words, i);
    // A lone "a" is an article, not a number; "oh" alone is an exclamation.
    if (match && match.end > i && !(words[i] === 'a' && match.end === i + 1)) {
      found.push(match);
      i = match.end;
    } else {
      i += 1;
    }
  }
  return found;
}

/** Words that are part of a spoken number (so callers can skip them when reading labels). */
export function isNumberWord(word: string): boolean {
  return (
    word in UNITS ||
    word in TEENS ||
    word in TENS ||
    word === 'hundred' ||
    word === 'thousand' ||
    DIGITS.test(word)
  );
}
