/**
 * How often: "TID", "t.i.d.", "three times a day", "3x/day", "twice daily", "once a day", "daily",
 * "every day", "q6h", "every 6 hours", "every other day", "twice a week", "weekly", "in the morning
 * and at night". Each is reduced to a key ("day:3") so that a written form and a spoken one meet,
 * and to the label a flag shows (QD, BID, TID, QID, or words for the rest).
 */
import { isNumberWord, readNumber } from './spoken-numbers';
import { isWord, type Token } from './tokens';

export interface Frequency {
  /** Equal keys, equal frequency: "day:3", "hours:6", "week:2", "days:2". */
  key: string;
  /** What a flag shows: "TID", "every 6 hours", "twice a week". */
  label: string;
  first: number;
  next: number;
}

const DAY_LABELS = ['', 'QD', 'BID', 'TID', 'QID'];
const TIMES_WORDS: Record<string, number> = { once: 1, twice: 2, thrice: 3 };
const ABBREVIATIONS: Record<string, number> = {
  qd: 1,
  qday: 1,
  qam: 1,
  qpm: 1,
  qhs: 1,
  bid: 2,
  tid: 3,
  qid: 4,
};
/** "daily" that is not a frequency: "activities of daily living", "daily life". */
const NOT_AFTER_DAILY = new Set(['activities', 'activity', 'living', 'life', 'routine', 'tasks', 'chores']);
const HOURS = ['h', 'hr', 'hrs', 'hour', 'hours'];
const Q_HOURS = /^q(\d+)(h|hr|hrs|hours?)?$/;
/** The words a frequency can start with, besides numbers: the finder asks at every word. */
const STARTS = new Set([
  ...Object.keys(TIMES_WORDS),
  ...Object.keys(ABBREVIATIONS),
  'qod',
  'daily',
  'nightly',
  'weekly',
  'at',
  'every',
  'each',
  'q',
  'in',
  'morning',
]);

function perDay(n: number, first: number, next: number): Frequency {
  return { key: `day:${n}`, label: DAY_LABELS[n] ?? `${n} times a day`, first, next };
}
function perWeek(n: number, first: number, next: number): Frequency {
  const label = n === 1 ? 'once a week' : n === 2 ? 'twice a week' : `${n} times a week`;
  return { key: `week:${n}`, label, first, next };
}
/** Every n hours; every 24 hours is once a day. */
function everyHours(n: number, first: number, next: number): Frequency {
  if (n === 24) return perDay(1, first, next);
  return { key: `hours:${n}`, label: n === 1 ? 'every hour' : `every ${n} hours`, first, next };
}
function everyDays(n: number, first: number, next: number): Frequency {
  if (n === 1) return perDay(1, first, next);
  return { key: `days:${n}`, label: n === 2 ? 'every other day' : `every ${n} days`, first, next };
}

/** tokens[j] when it is in the sentence of tokens[first]. */
function at(tokens: readonly Token[], first: number, j: number): Token | undefined {
  const t = tokens[j];
  return t !== undefined && t.sentence === tokens[first]!.sentence ? t : undefined;
}

/** "a day", "per day", "each day", "every day", "/day", "daily", "in a day": the period after a count. */
function period(
  tokens: readonly Token[],
  first: number,
  j: number,
): { per: 'day' | 'week'; next: number } | undefined {
  if (isWord(at(tokens, first, j), 'daily')) return { per: 'day', next: j + 1 };
  if (isWord(at(tokens, first, j), 'weekly')) return { per: 'week', next: j + 1 };
  let k = j;
  if (isWord(at(tokens, first, k), 'in') && isWord(at(tokens, first, k + 1), 'a')) k += 2;
  else if (isWord(at(tokens, first, k), 'a', 'per', 'each', 'every') || at(tokens, first, k)?.text === '/')
    k += 1;
  else return undefined;
  if (isWord(at(tokens, first, k), 'day', 'd')) return { per: 'day', next: k + 1 };
  if (isWord(at(tokens, first, k), 'week', 'wk')) return { per: 'week', next: k + 1 };
  return undefined;
}

/** A count of times: "once", "twice", "three times", "3x", "3 x", "2 times". */
function count(tokens: readonly Token[], i: number): { n: number; next: number } | undefined {
  const t = tokens[i]!;
  if (t.type === 'word' && Object.hasOwn(TIMES_WORDS, t.text))
    return { n: TIMES_WORDS[t.text]!, next: i + 1 };
  const number = readNumber(tokens, i);
  if (!number || !Number.isInteger(number.value) || number.value < 1 || number.value > 24) return undefined;
  if (isWord(at(tokens, i, number.next), 'times', 'time', 'x'))
    return { n: number.value, next: number.next + 1 };
  return undefined;
}

/** "every N hours", "q 6 h", "q6h", "every other day", "every 3 days", "every day", "every morning". */
function every(tokens: readonly Token[], i: number): Frequency | undefined {
  const t = tokens[i]!;
  const q = Q_HOURS.exec(t.text);
  if (q) {
    if (q[2]) return everyHours(Number(q[1]), i, i + 1);
    if (isWord(at(tokens, i, i + 1), ...HOURS)) return everyHours(Number(q[1]), i, i + 2);
    return undefined;
  }
  if (!isWord(t, 'every', 'each', 'q')) return undefined;
  const after = at(tokens, i, i + 1);
  if (!after) return undefined;
  if (isWord(after, 'day', 'morning', 'night', 'evening')) return perDay(1, i, i + 2);
  if (isWord(after, 'week') && !isWord(t, 'q')) return perWeek(1, i, i + 2);
  if (isWord(after, 'other') && isWord(at(tokens, i, i + 2), 'day')) return everyDays(2, i, i + 3);
  const number = readNumber(tokens, i + 1);
  if (!number || !Number.isInteger(number.value) || number.value < 1) return undefined;
  const unit = at(tokens, i, number.next);
  if (isWord(unit, ...HOURS)) return everyHours(number.value, i, number.next + 1);
  if (isWord(unit, 'days') && !isWord(t, 'q')) return everyDays(number.value, i, number.next + 1);
  return undefined;
}

/** "(every|in the) morning and (at|every) night|evening|bedtime": twice a day. */
function morningAndNight(tokens: readonly Token[], i: number): Frequency | undefined {
  let k = i;
  if (isWord(at(tokens, i, k), 'every', 'each')) k += 1;
  else if (isWord(at(tokens, i, k), 'in') && isWord(at(tokens, i, k + 1), 'the')) k += 2;
  if (!isWord(at(tokens, i, k), 'morning') || !isWord(at(tokens, i, k + 1), 'and')) return undefined;
  for (let j = k + 2; j <= k + 4; j += 1) {
    const t = at(tokens, i, j);
    if (isWord(t, 'night', 'evening', 'bedtime')) return perDay(2, i, j + 1);
    if (!isWord(t, 'at', 'in', 'the', 'every', 'each')) return undefined;
  }
  return undefined;
}

/** The frequency that starts at token i, if one does. */
export function frequencyAt(tokens: readonly Token[], i: number): Frequency | undefined {
  const t = tokens[i];
  if (!t || t.type === 'mark') return undefined;
  if (t.type === 'word' && !STARTS.has(t.text) && !isNumberWord(t.text) && !Q_HOURS.test(t.text))
    return undefined;
  if (Object.hasOwn(ABBREVIATIONS, t.text)) return perDay(ABBREVIATIONS[t.text]!, i, i + 1);
  if (t.text === 'qod') return everyDays(2, i, i + 1);
  if (t.text === 'daily' || t.text === 'nightly') {
    const after = at(tokens, i, i + 1);
    if (isWord(tokens[i - 1], 'of') || (after?.type === 'word' && NOT_AFTER_DAILY.has(after.text)))
      return undefined;
    return perDay(1, i, i + 1);
  }
  if (t.text === 'weekly') return perWeek(1, i, i + 1);
  if (t.text === 'at') return isWord(at(tokens, i, i + 1), 'bedtime') ? perDay(1, i, i + 2) : undefined;
  const times = count(tokens, i);
  if (times) {
    const per = period(tokens, i, times.next);
    if (per) return per.per === 'day' ? perDay(times.n, i, per.next) : perWeek(times.n, i, per.next);
  }
  return morningAndNight(tokens, i) ?? every(tokens, i);
}

/**
 * Right after a dose, a time of day is how often: "eighty one milligrams a day", "ten milligrams at
 * night", "twenty milligrams in the morning" are once a day (elsewhere "worse at night" is not).
 */
export function doseFrequencyAt(tokens: readonly Token[], i: number): Frequency | undefined {
  if (!tokens[i]) return undefined;
  const per = period(tokens, i, i);
  if (per) return per.per === 'day' ? perDay(1, i, per.next) : undefined;
  const twice = morningAndNight(tokens, i);
  if (twice) return twice;
  if (isWord(tokens[i], 'at') && isWord(at(tokens, i, i + 1), 'night', 'bedtime')) return perDay(1, i, i + 2);
  if (
    isWord(tokens[i], 'in') &&
    isWord(at(tokens, i, i + 1), 'the') &&
    isWord(at(tokens, i, i + 2), 'morning', 'evening')
  ) {
    return perDay(1, i, i + 3);
  }
  return undefined;
}
