/**
 * Numbers as people say them and as recognizers write them ("five hundred", "one hundred and two",
 * "one fifty", "one oh one", "thirty eight point two", "one and a half", "a thousand") and as
 * notes type them ("500", "1,000", "38.2", ".5"), read from tokens. The note and the transcript
 * are read by this one reader, so "500 mg" in a note and "five hundred milligrams" in a line meet.
 */
import type { Token } from './tokens';
import { DIGIT_WORDS, TEEN_WORDS, TENS_WORDS } from '../../shared/number-words';

const TEENS = TEEN_WORDS;
const TENS = TENS_WORDS;

/** Words a spoken number can start with: every other word is rejected at once (the finder asks at every word). */
const STARTS = new Set([
  ...Object.keys(DIGIT_WORDS),
  ...Object.keys(TEENS),
  ...Object.keys(TENS),
  'a',
  'an',
  'point',
  'half',
]);
/** "half" then "a": the one reading of "half" as a number ("half a milligram"). */
const halfA = (tokens: readonly Token[], i: number) =>
  tokens[i + 1]?.type === 'word' &&
  tokens[i + 1]!.sentence === tokens[i]!.sentence &&
  ['a', 'an'].includes(tokens[i + 1]!.text);

export interface NumberRead {
  value: number;
  /** The first token of the number, and one past its last. */
  first: number;
  next: number;
  /**
   * Where a second reading starts when the number was read in pairs: "one ten milligram" is 110
   * ("one ten" as blood pressures are said) or "one" "ten milligram"; the transcript side keeps both.
   */
  pairAt?: number;
}

type Part = { value: number; next: number; pairAt?: number };

/** The word at j, when it is a word in the same sentence as the number's first token. */
function wordAt(tokens: readonly Token[], first: number, j: number): string | undefined {
  const t = tokens[j];
  return t && t.type === 'word' && t.sentence === tokens[first]?.sentence ? t.text : undefined;
}

const lookup = (table: Record<string, number>, w: string | undefined) =>
  w !== undefined && Object.hasOwn(table, w) ? table[w] : undefined;

/** 0–99 in words: "seventy", "seventy two" ("seventy-two" arrives as two words), "fourteen", "seven". */
function belowHundred(tokens: readonly Token[], first: number, j: number): Part | undefined {
  const w = wordAt(tokens, first, j);
  const teen = lookup(TEENS, w);
  if (teen !== undefined) return { value: teen, next: j + 1 };
  const tens = lookup(TENS, w);
  if (tens !== undefined) {
    const unit = lookup(DIGIT_WORDS, wordAt(tokens, first, j + 1));
    return unit !== undefined && unit > 0
      ? { value: tens + unit, next: j + 2 }
      : { value: tens, next: j + 1 };
  }
  const unit = lookup(DIGIT_WORDS, w);
  return unit === undefined ? undefined : { value: unit, next: j + 1 };
}

/** Whole numbers in words up to the thousands. */
function wholeInWords(tokens: readonly Token[], first: number, j: number): Part | undefined {
  const w = wordAt(tokens, first, j);
  const after = wordAt(tokens, first, j + 1);
  // "a hundred", "a thousand" (a lone "a" is an article, never a number)
  const lead =
    (w === 'a' || w === 'an') && (after === 'hundred' || after === 'thousand')
      ? { value: 1, next: j + 1 }
      : undefined;
  const head = lead ?? belowHundred(tokens, first, j);
  if (!head) return undefined;
  let { value, next } = head;
  const skipAnd = (k: number) => (wordAt(tokens, first, k) === 'and' ? k + 1 : k);

  if (wordAt(tokens, first, next) === 'thousand') {
    value *= 1000;
    next += 1;
    const rest = wholeInWords(tokens, first, skipAnd(next));
    if (rest && rest.value < 1000) return { value: value + rest.value, next: rest.next };
    return { value, next };
  }
  if (wordAt(tokens, first, next) === 'hundred') {
    value *= 100;
    next += 1;
    const rest = belowHundred(tokens, first, skipAnd(next));
    return rest ? { value: value + rest.value, next: rest.next } : { value, next };
  }
  // In pairs, as blood pressures, temperatures and some doses are said: "one fifty" = 150,
  // "one oh one" = 101. Only a single digit word can open a pair ("seventy two" is 72, not 7,200).
  if (!lead && head.next === j + 1 && value >= 1 && value <= 9) {
    const pairWord = wordAt(tokens, first, next);
    if (pairWord === 'oh') {
      const unit = lookup(DIGIT_WORDS, wordAt(tokens, first, next + 1));
      if (unit !== undefined) return { value: value * 100 + unit, next: next + 2, pairAt: next };
    } else if (lookup(TEENS, pairWord) !== undefined || lookup(TENS, pairWord) !== undefined) {
      const pair = belowHundred(tokens, first, next);
      if (pair) return { value: value * 100 + pair.value, next: pair.next, pairAt: next };
    }
  }
  return { value, next };
}

/** Digits said after "point": "point two five" → "25"; "oh" and "zero" are 0. */
function decimalDigits(tokens: readonly Token[], first: number, j: number): { digits: string; next: number } {
  let digits = '';
  for (;;) {
    const w = wordAt(tokens, first, j);
    const d = w === 'oh' ? 0 : lookup(DIGIT_WORDS, w);
    if (d === undefined) return { digits, next: j };
    digits += String(d);
    j += 1;
  }
}

/** "and a half" after a number adds 0.5 ("one and a half milligrams"). */
function half(tokens: readonly Token[], first: number, j: number): number {
  const words = [0, 1, 2].map((k) => wordAt(tokens, first, j + k));
  return words[0] === 'and' && words[1] === 'a' && words[2] === 'half' ? j + 3 : j;
}

/** The number that starts at token i, as long as it can be read, or undefined when none starts there. */
export function readNumber(tokens: readonly Token[], i: number): NumberRead | undefined {
  const t = tokens[i];
  if (!t) return undefined;
  if (t.type === 'number') {
    const value = Number(t.text);
    const next = half(tokens, i, i + 1);
    return { value: next > i + 1 ? value + 0.5 : value, first: i, next };
  }
  if (t.type !== 'word' || !STARTS.has(t.text)) return undefined;
  // "half a milligram"
  if (t.text === 'half') return halfA(tokens, i) ? { value: 0.5, first: i, next: i + 2 } : undefined;
  // "point five" (milligrams)
  if (t.text === 'point') {
    const { digits, next } = decimalDigits(tokens, i, i + 1);
    return digits ? { value: Number(`0.${digits}`), first: i, next } : undefined;
  }
  const whole = wholeInWords(tokens, i, i);
  if (!whole) return undefined;
  let { value, next } = whole;
  if (wordAt(tokens, i, next) === 'point') {
    const decimal = decimalDigits(tokens, i, next + 1);
    if (decimal.digits) [value, next] = [Number(`${value}.${decimal.digits}`), decimal.next];
  } else {
    const afterHalf = half(tokens, i, next);
    if (afterHalf > next) [value, next] = [value + 0.5, afterHalf];
  }
  return { value, first: i, next, ...(whole.pairAt !== undefined ? { pairAt: whole.pairAt } : {}) };
}

/** Whether a word can be part of a spoken number (a finder skips them when it looks for context). */
export function isNumberWord(word: string): boolean {
  return (
    Object.hasOwn(DIGIT_WORDS, word) ||
    Object.hasOwn(TEENS, word) ||
    Object.hasOwn(TENS, word) ||
    word === 'hundred' ||
    word === 'thousand'
  );
}
