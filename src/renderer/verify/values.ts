/**
 * The values a section's text states that the check looks up: doses, durations, frequencies and
 * vital signs (blood pressure, temperature, heart rate, a percentage). A number counts only with a
 * unit or a vital sign's name before it, so a date, a time ("0:52"), an age ("62-year-old"), list
 * numbering or an encounter ID is never one. The note and the transcript lines are read by the same
 * finder; the lines' reading is more generous ("for a week" is one week there, and a number said
 * in pairs keeps both readings), because a line only ever supports, it is never flagged.
 */
import { doseFrequencyAt, frequencyAt, type Frequency } from './frequencies';
import { isNumberWord, readNumber, type NumberRead } from './spoken-numbers';
import { isWord, type Token } from './tokens';
import { formatAmount, formatNumber, unitAt, UNIT, type Unit } from './units';

export type ValueKind =
  'dose' | 'duration' | 'frequency' | 'blood-pressure' | 'temperature' | 'heart-rate' | 'percent';

export interface Value {
  kind: ValueKind;
  /** Its tokens: the first, and one past the last. */
  first: number;
  next: number;
  /** The number (a blood pressure's systolic; unused for a frequency). */
  amount: number;
  /** A blood pressure's diastolic. */
  second?: number;
  unit?: Unit;
  frequency?: Frequency;
  /** The value as a flag's `said` names it: "500 mg", "150/90", "TID". */
  shown: string;
  /** The second reading of a number said in pairs: it may support, it is never named as said. */
  alternative?: boolean;
}

/** A number the lines say with no unit or vital sign ("metformin five hundred"): it may still support. */
export interface BareNumber {
  value: number;
  first: number;
}

export interface Found {
  values: Value[];
  bare: BareNumber[];
}

export type Reading = 'note' | 'line';

const inSentence = (tokens: readonly Token[], first: number, j: number) =>
  tokens[j] !== undefined && tokens[j]!.sentence === tokens[first]!.sentence ? tokens[j] : undefined;

/** Plausible readings, for numbers whose kind comes from a word before them rather than a unit. */
const PLAUSIBLE: Partial<Record<ValueKind, (n: number) => boolean>> = {
  temperature: (n) => (n >= 30 && n <= 45) || (n >= 85 && n <= 110),
  'heart-rate': (n) => n >= 20 && n <= 250,
  percent: (n) => n >= 50 && n <= 100,
};

/** The vital sign a number belongs to by the words before it: "heart rate is 72", "temp 38.2", "SpO2 96". */
function vitalBefore(tokens: readonly Token[], i: number): ValueKind | undefined {
  for (let j = i - 1; j >= Math.max(0, i - 5); j -= 1) {
    const t = inSentence(tokens, i, j);
    if (!t || t.type === 'number' || (t.type === 'mark' && !/^[:=-]$/.test(t.text))) return undefined;
    if (t.type !== 'word') continue;
    const w = t.text;
    if (isNumberWord(w)) return undefined;
    if (w === 'rate') return isWord(tokens[j - 1], 'heart', 'pulse') ? 'heart-rate' : undefined;
    if (['hr', 'pulse', 'heartrate'].includes(w)) return 'heart-rate';
    if (['ox', 'oximetry', 'saturation', 'sat', 'sats', 'spo2', 'o2', 'oxygen', 'satting'].includes(w))
      return 'percent';
    if (['temperature', 'temp', 'fever', 'tmax'].includes(w)) return 'temperature';
    // "T 38.2", "T: 38.2": the letter alone only right before the number.
    if (w === 't' && (j === i - 1 || (j === i - 2 && tokens[i - 1]?.text === ':'))) return 'temperature';
    if (['bp', 'pressure', 'respiratory', 'rr', 'weight', 'glucose', 'sugar'].includes(w)) return undefined;
  }
  return undefined;
}

/** "flexion to 100 degrees", "range of motion": the degrees of an angle. */
const ANGLE = new Set([
  'flexion',
  'extension',
  'abduction',
  'adduction',
  'rotation',
  'range',
  'angle',
  'motion',
  'elevation',
]);
function angleBefore(tokens: readonly Token[], i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 4); j -= 1) {
    const t = inSentence(tokens, i, j);
    if (!t) return false;
    if (t.type === 'word' && ANGLE.has(t.text)) return true;
  }
  return false;
}

const hasPressureWord = (tokens: readonly Token[], i: number) => {
  for (let j = i - 1; j >= Math.max(0, i - 4); j -= 1) {
    const t = inSentence(tokens, i, j);
    if (!t) return false;
    if (isWord(t, 'bp', 'pressure', 'pressures')) return true;
  }
  return false;
};

/** "150/90", "150 over 90", "one fifty over ninety", with "mmHg" if it follows. */
function bloodPressure(tokens: readonly Token[], top: NumberRead): Value | undefined {
  const sep = inSentence(tokens, top.first, top.next);
  if (!sep || !(sep.text === '/' || isWord(sep, 'over'))) return undefined;
  if (!inSentence(tokens, top.first, top.next + 1)) return undefined;
  const bottom = readNumber(tokens, top.next + 1);
  if (!bottom) return undefined;
  // 3/5/2024 is a date; 7/10 is a pain score, 1/2 a tablet: they fail the plausible range below.
  if (tokens[bottom.next]?.text === '/' || tokens[top.first - 1]?.text === '/') return undefined;
  const [s, d] = [top.value, bottom.value];
  const unit = unitAt(tokens, top.first, bottom.next);
  const mmHg = unit?.unit.kind === 'pressure' ? unit : undefined;
  const plausible = s >= 50 && s <= 300 && d >= 20 && d <= 200 && s > d;
  if (!plausible && !mmHg && !hasPressureWord(tokens, top.first)) return undefined;
  const next = mmHg?.next ?? bottom.next;
  const shown = `${formatNumber(s)}/${formatNumber(d)}`;
  return { kind: 'blood-pressure', first: top.first, next, amount: s, second: d, shown };
}

/** A unit after a number, allowing "10-day" and "10 day"; none when the unit is part of a rate or a lab. */
function unitAfter(tokens: readonly Token[], number: NumberRead): { unit: Unit; next: number } | undefined {
  const j = tokens[number.next]?.text === '-' ? number.next + 1 : number.next;
  const found = unitAt(tokens, number.first, j);
  if (!found) return undefined;
  const { unit, next } = found;
  const after = inSentence(tokens, number.first, next);
  const afterNext = inSentence(tokens, number.first, next + 1);
  // mg/dL, mg/kg, mL/hr, mg per kilogram: a concentration or a rate, not a dose.
  if (after && (after.text === '/' || isWord(after, 'per')) && !isWord(afterNext, 'day', 'd', 'dose')) {
    return undefined;
  }
  // "3-month-old", "6 weeks old": an age.
  if (unit.kind === 'duration' && isWord(tokens[tokens[next]?.text === '-' ? next + 1 : next], 'old'))
    return undefined;
  if (unit.kind === 'temperature') {
    const loose = unit.shown === 'degrees' || tokens[j]?.text === 'f' || tokens[j]?.text === 'c';
    // "flexion to 100 degrees", "2 c" of anything: a temperature only where one is plausible (a body's,
    // narrower than a named temperature's) and no angle is being measured.
    const named = vitalBefore(tokens, number.first) === 'temperature';
    const n = number.value;
    if (
      loose &&
      !named &&
      (!((n >= 34 && n <= 43) || (n >= 95 && n <= 110)) || angleBefore(tokens, number.first))
    ) {
      return undefined;
    }
  }
  if (unit.kind === 'pressure') return undefined; // a lone "120 mmHg" is not checked
  return found;
}

function withUnit(number: NumberRead, unit: Unit, next: number, first = number.first): Value {
  const kind: ValueKind = unit.kind === 'pressure' ? 'blood-pressure' : unit.kind;
  return { kind, first, next, amount: number.value, unit, shown: formatAmount(number.value, unit) };
}

/** "2 to 3 days", "2-3 days", "two or three weeks": the first number takes the second's unit. */
function rangeUnit(tokens: readonly Token[], number: NumberRead): Unit | undefined {
  const link = inSentence(tokens, number.first, number.next);
  if (!link || !(isWord(link, 'to', 'or') || link.text === '-' || link.text === '–')) return undefined;
  if (!inSentence(tokens, number.first, number.next + 1)) return undefined;
  const other = readNumber(tokens, number.next + 1);
  return other ? unitAfter(tokens, other)?.unit : undefined;
}

/** Before "a week" in a note, the words that make it a duration ("for a week", "started a day ago"). */
const BEFORE_ARTICLE_DURATION = new Set(
  'for about past last over x within around nearly almost only than started began lasting'.split(' '),
);

/**
 * "for a week" (one), "a couple of days" (two). The lines read every "a day"; a note only one that is
 * plainly a duration ("for a week", "a day ago"), not "ten cigarettes a day".
 */
function articleDuration(tokens: readonly Token[], i: number, reading: Reading): Value | undefined {
  const t = tokens[i]!;
  let [n, j] = [1, i + 1];
  if (isWord(t, 'couple') && isWord(inSentence(tokens, i, i + 1), 'of')) [n, j] = [2, i + 2];
  else if (!isWord(t, 'a', 'an')) return undefined;
  const found = inSentence(tokens, i, j) ? unitAt(tokens, i, j) : undefined;
  if (!found || found.unit.kind !== 'duration') return undefined;
  if (reading === 'note') {
    const lead = isWord(tokens[i - 1], 'a') ? tokens[i - 2] : tokens[i - 1];
    const before =
      lead?.sentence === t.sentence && lead.type === 'word' && BEFORE_ARTICLE_DURATION.has(lead.text);
    if (!before && !isWord(inSentence(tokens, i, found.next), 'ago')) return undefined;
  }
  return withUnit({ value: n, first: i, next: j }, found.unit, found.next);
}

/** Every value in `tokens`, and (for lines) the numbers that stand alone. */
export function findValues(tokens: readonly Token[], reading: Reading): Found {
  const values: Value[] = [];
  const bare: BareNumber[] = [];

  const frequency = (often: Frequency): Value => ({
    kind: 'frequency',
    first: often.first,
    next: often.next,
    amount: 0,
    frequency: often,
    shown: often.label,
  });

  /**
   * The value (or bare number) a number read at its first token makes; returns where reading goes on.
   * A second reading of a pair is only ever a dose or the like: its pair was the blood pressure.
   */
  const valueOf = (number: NumberRead, alternative = false): number => {
    const pressure = alternative ? undefined : bloodPressure(tokens, number);
    if (pressure) {
      values.push(pressure);
      return pressure.next;
    }
    const unit = unitAfter(tokens, number);
    if (unit) {
      values.push(withUnit(number, unit.unit, unit.next));
      const often = unit.unit.kind === 'dose' ? doseFrequencyAt(tokens, unit.next) : undefined;
      if (!often || !inSentence(tokens, number.first, often.first)) return unit.next;
      values.push(frequency(often));
      return often.next;
    }
    if (alternative) return number.next;
    const ranged = rangeUnit(tokens, number);
    const vital = ranged ? undefined : vitalBefore(tokens, number.first);
    if (ranged) {
      values.push(withUnit(number, ranged, number.next));
    } else if (vital && PLAUSIBLE[vital]!(number.value)) {
      // "heart rate 72", "SpO2 96", "temp 38.2": the kind comes from the vital sign's name.
      const own = vital === 'heart-rate' ? UNIT.BPM : vital === 'percent' ? UNIT.PERCENT : undefined;
      const shown = formatAmount(number.value, own);
      values.push({
        kind: vital,
        first: number.first,
        next: number.next,
        amount: number.value,
        ...(own ? { unit: own } : {}),
        shown,
      });
    } else if (reading === 'line') {
      bare.push({ value: number.value, first: number.first });
    }
    return number.next;
  };

  for (let i = 0; i < tokens.length;) {
    const t = tokens[i]!;
    if (t.type === 'mark') {
      i += 1;
      continue;
    }
    const often = frequencyAt(tokens, i);
    if (often) {
      values.push(frequency(often));
      i = often.next;
      continue;
    }
    const article =
      t.type === 'word' && (t.text === 'a' || t.text === 'an' || t.text === 'couple')
        ? articleDuration(tokens, i, reading)
        : undefined;
    if (article) {
      values.push(article);
      i = article.next;
      continue;
    }
    const number = readNumber(tokens, i);
    // A lone "a" or "an" is an article, not a number.
    if (!number) {
      i += 1;
      continue;
    }
    const next = valueOf(number);
    // Said in pairs, "one ten milligram" may be 110 mg or one 10 mg: the lines keep both readings.
    if (reading === 'line' && number.pairAt !== undefined) {
      const second = readNumber(tokens, number.pairAt);
      const before = values.length;
      if (second) valueOf(second, true);
      for (const v of values.slice(before)) v.alternative = true;
    }
    i = next;
  }
  return { values, bare };
}
