/**
 * The units a checked value may carry, in every form a note types or a person says them ("mg",
 * "milligrams", "°F", "degrees fahrenheit", "%", "percent", "mmHg", "beats per minute"), each with
 * the one form a flag shows ("500 mg") and, for doses and durations, a factor to a base unit so
 * "0.5 g" and "500 mg", or "2 weeks" and "14 days", are the same value.
 */
import type { Token } from './tokens';

export type UnitKind = 'dose' | 'duration' | 'temperature' | 'heart-rate' | 'percent' | 'pressure';

export interface Unit {
  kind: UnitKind;
  /** The form a flag shows: mg, mcg, g, mL, units, day, week, month, °F, °C, degrees, bpm, %, mmHg. */
  shown: string;
  /** What it measures, and its size there (mass in mg, volume in mL, durations in days or months). */
  base: string;
  factor: number;
}

const u = (kind: UnitKind, shown: string, base: string, factor = 1): Unit => ({ kind, shown, base, factor });
const MG = u('dose', 'mg', 'mass');
const MCG = u('dose', 'mcg', 'mass', 0.001);
const G = u('dose', 'g', 'mass', 1000);
const ML = u('dose', 'mL', 'volume');
const UNITS = u('dose', 'units', 'units');
const DAY = u('duration', 'day', 'days');
const WEEK = u('duration', 'week', 'days', 7);
const MONTH = u('duration', 'month', 'months');
const FAHRENHEIT = u('temperature', '°F', 'F');
const CELSIUS = u('temperature', '°C', 'C');
/** "degrees" with no scale: which one is read from the number (see sameTemperature in values.ts). */
const DEGREES = u('temperature', 'degrees', 'degrees');
const BPM = u('heart-rate', 'bpm', 'bpm');
const PERCENT = u('percent', '%', '%');
const MMHG = u('pressure', 'mmHg', 'mmHg');

/** Every spelling, as tokens; the longest that matches wins ("degrees fahrenheit" over "degrees"). */
const SPELLINGS: [string, Unit][] = [
  ...['mg', 'mgs', 'milligram', 'milligrams', 'milligramme', 'milligrammes'].map(
    (s) => [s, MG] as [string, Unit],
  ),
  ...['mcg', 'mcgs', 'µg', 'ug', 'microgram', 'micrograms', 'microgramme', 'microgrammes'].map(
    (s) => [s, MCG] as [string, Unit],
  ),
  ...['g', 'gm', 'gms', 'gram', 'grams', 'gramme', 'grammes'].map((s) => [s, G] as [string, Unit]),
  ...['ml', 'mls', 'milliliter', 'milliliters', 'millilitre', 'millilitres', 'cc', 'ccs'].map(
    (s) => [s, ML] as [string, Unit],
  ),
  ...['unit', 'units', 'iu', 'ius', 'international unit', 'international units'].map(
    (s) => [s, UNITS] as [string, Unit],
  ),
  ...['day', 'days'].map((s) => [s, DAY] as [string, Unit]),
  ...['week', 'weeks', 'wk', 'wks'].map((s) => [s, WEEK] as [string, Unit]),
  ...['month', 'months', 'mo', 'mos'].map((s) => [s, MONTH] as [string, Unit]),
  ...['°f', 'f', 'fahrenheit', 'degrees fahrenheit', 'degree fahrenheit', 'degrees f'].map(
    (s) => [s, FAHRENHEIT] as [string, Unit],
  ),
  ...['°c', 'c', 'celsius', 'degrees celsius', 'degree celsius', 'degrees centigrade', 'degrees c'].map(
    (s) => [s, CELSIUS] as [string, Unit],
  ),
  ...['degrees', 'degree', '°'].map((s) => [s, DEGREES] as [string, Unit]),
  ...['bpm', 'beats per minute', 'beats a minute', 'beats per min', 'beats / min'].map(
    (s) => [s, BPM] as [string, Unit],
  ),
  ...['%', 'percent', 'per cent', 'pct'].map((s) => [s, PERCENT] as [string, Unit]),
  ...['mmhg', 'mm hg', 'millimeters of mercury', 'millimetres of mercury'].map(
    (s) => [s, MMHG] as [string, Unit],
  ),
];
const BY_FIRST = new Map<string, { words: string[]; unit: Unit }[]>();
for (const [spelling, unit] of SPELLINGS) {
  const words = spelling.split(' ');
  const list = BY_FIRST.get(words[0]!) ?? [];
  list.push({ words, unit });
  BY_FIRST.set(words[0]!, list);
}
for (const list of BY_FIRST.values()) list.sort((a, b) => b.words.length - a.words.length);

/** The unit that starts at token j (in the sentence of token `first`), and the token after it. */
export function unitAt(
  tokens: readonly Token[],
  first: number,
  j: number,
): { unit: Unit; next: number } | undefined {
  const sentence = tokens[first]?.sentence;
  for (const { words, unit } of BY_FIRST.get(tokens[j]?.text ?? '') ?? []) {
    const fits = words.every((w, k) => {
      const t = tokens[j + k];
      return t !== undefined && t.sentence === sentence && t.text === w;
    });
    if (fits) return { unit, next: j + words.length };
  }
  return undefined;
}

/** A number as a flag shows it: no thousands separator ("1000 mg", as the issue writes it), ≤ 3 decimals. */
export function formatNumber(value: number): string {
  return String(Number(value.toFixed(3)));
}

/** "500 mg", "1 day", "2 weeks", "38.2 °C", "96%", "72 bpm". */
export function formatAmount(value: number, unit: Unit | undefined): string {
  const n = formatNumber(value);
  if (!unit) return n;
  if (unit.kind === 'duration') return `${n} ${unit.shown}${value === 1 ? '' : 's'}`;
  if (unit.shown === '%') return `${n}%`;
  return `${n} ${unit.shown}`;
}

export const UNIT = {
  MG,
  MCG,
  G,
  ML,
  UNITS,
  DAY,
  WEEK,
  MONTH,
  FAHRENHEIT,
  CELSIUS,
  DEGREES,
  BPM,
  PERCENT,
  MMHG,
};
