/**
 * How the corpus says and writes values: numbers in words in the ways people say them (plain, with
 * "and", "a hundred", in pairs as blood pressures are said, or as digits, as some recognizers
 * write them), and units, frequencies and vital signs in their spoken and typed forms. Written for
 * the benchmark from how clinicians talk and chart, not from the matcher: it shares no code with
 * src/renderer/verify, so a form the matcher does not read costs recall or a false flag here.
 */
import type { Random } from './random';

const ONES = (
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen ' +
  'seventeen eighteen nineteen'
).split(' ');
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

function under100(n: number): string {
  if (n < 20) return ONES[n]!;
  const [t, o] = [Math.floor(n / 10), n % 10];
  return o === 0 ? TENS[t]! : `${TENS[t]} ${ONES[o]}`;
}

function under1000(n: number, and: boolean, article: boolean): string {
  if (n < 100) return under100(n);
  const [h, r] = [Math.floor(n / 100), n % 100];
  const head = h === 1 && article ? 'a hundred' : `${ONES[h]} hundred`;
  return r === 0 ? head : `${head}${and ? ' and' : ''} ${under100(r)}`;
}

export type NumberStyle = 'plain' | 'and' | 'article' | 'pairs' | 'digits';

/** A whole number in words, in one of the ways it is said. */
export function wholeInWords(n: number, style: NumberStyle): string {
  if (style === 'digits') return String(n);
  const and = style === 'and';
  const article = style === 'article';
  if (style === 'pairs' && n >= 110 && n <= 999 && n % 100 !== 0) {
    // "one fifty", "one oh five"
    const [h, r] = [Math.floor(n / 100), n % 100];
    return r < 10 ? `${ONES[h]} oh ${ONES[r]}` : `${ONES[h]} ${under100(r)}`;
  }
  if (n >= 1000) {
    const [th, r] = [Math.floor(n / 1000), n % 1000];
    // "fifteen hundred"
    if (style === 'pairs' && n < 10_000 && r % 100 === 0 && r !== 0)
      return `${under100(Math.floor(n / 100))} hundred`;
    const head = th === 1 && article ? 'a thousand' : `${under1000(th, and, false)} thousand`;
    return r === 0 ? head : `${head}${and && r < 100 ? ' and' : ''} ${under1000(r, and, false)}`;
  }
  return under1000(n, and, article);
}

/** A number as said, decimals digit by digit ("thirty eight point two"), x.5 sometimes "and a half". */
export function spoken(n: number, rng: Random): string {
  const style = rng.weighted<NumberStyle>([
    ['plain', 40],
    ['and', 20],
    ['article', 8],
    ['pairs', 17],
    ['digits', 15],
  ]);
  if (style === 'digits') return String(n);
  const whole = Math.trunc(n);
  const fraction = Number((n - whole).toFixed(3));
  if (fraction === 0) return wholeInWords(whole, style);
  if (fraction === 0.5 && whole > 0 && rng.chance(0.4)) return `${wholeInWords(whole, style)} and a half`;
  const digits = String(fraction)
    .slice(2)
    .split('')
    .map((d) => ONES[Number(d)]);
  const head = whole === 0 ? (rng.chance(0.5) ? 'zero ' : '') : `${wholeInWords(whole, style)} `;
  return `${head}point ${digits.join(' ')}`;
}

/** A number as typed in a note: "500", "1,000" or "1000", "0.5", "38.2". */
export function typed(n: number, rng: Random): string {
  if (n >= 1000 && Number.isInteger(n) && rng.chance(0.5)) return n.toLocaleString('en-US');
  return String(n);
}

export type DoseUnit = 'mg' | 'mcg' | 'g' | 'mL' | 'units';
export const DOSE_UNITS: DoseUnit[] = ['mg', 'mcg', 'g', 'mL', 'units'];

const SAID_DOSE_UNIT: Record<DoseUnit, string[]> = {
  mg: ['milligrams'],
  mcg: ['micrograms', 'mcg'],
  g: ['grams'],
  mL: ['milliliters', 'mls', 'cc'],
  units: ['units'],
};
const TYPED_DOSE_UNIT: Record<DoseUnit, string[]> = {
  mg: ['mg', 'mg', 'milligrams', 'MG'],
  mcg: ['mcg', 'mcg', 'micrograms'],
  g: ['g', 'grams', 'gm'],
  mL: ['mL', 'ml', 'milliliters', 'millilitres'],
  units: ['units', 'units', 'IU'],
};
export const sayDoseUnit = (unit: DoseUnit, n: number, rng: Random) => {
  const word = rng.pick(SAID_DOSE_UNIT[unit]);
  return n === 1 && word.endsWith('s') && word !== 'units'
    ? word.slice(0, -1)
    : n === 1 && word === 'units'
      ? 'unit'
      : word;
};
export const typeDoseUnit = (unit: DoseUnit, rng: Random) => rng.pick(TYPED_DOSE_UNIT[unit]);

export type Often = 'QD' | 'BID' | 'TID' | 'QID' | 'Q6H' | 'Q8H' | 'WEEKLY';
export const OFTEN: Often[] = ['QD', 'BID', 'TID', 'QID', 'Q6H', 'Q8H', 'WEEKLY'];

const SAID_OFTEN: Record<Often, string[]> = {
  QD: ['once a day', 'every day', 'daily', 'once daily', 'every morning', 'one time a day'],
  BID: ['twice a day', 'two times a day', 'twice daily', 'in the morning and at night', 'two times daily'],
  TID: ['three times a day', 'three times daily', 'three times per day'],
  QID: ['four times a day', 'four times daily'],
  Q6H: ['every six hours', 'every 6 hours'],
  Q8H: ['every eight hours'],
  WEEKLY: ['once a week', 'every week', 'weekly'],
};
const TYPED_OFTEN: Record<Often, string[]> = {
  QD: ['daily', 'QD', 'once daily', 'q.d.', 'once a day'],
  BID: ['BID', 'b.i.d.', 'twice daily', 'twice a day', '2 times daily'],
  TID: ['TID', 't.i.d.', 'three times a day', '3 times daily', '3x/day'],
  QID: ['QID', 'q.i.d.', 'four times daily', '4 times a day'],
  Q6H: ['q6h', 'every 6 hours', 'q 6 h', 'Q6H'],
  Q8H: ['q8h', 'every 8 hours', 'Q8H'],
  WEEKLY: ['weekly', 'once a week', 'once weekly'],
};
export const sayOften = (often: Often, rng: Random) => rng.pick(SAID_OFTEN[often]);
export const typeOften = (often: Often, rng: Random) => rng.pick(TYPED_OFTEN[often]);

export type Span = 'day' | 'week' | 'month';
/** "ten days", "a week", "two weeks". */
export function sayDuration(n: number, span: Span, rng: Random): string {
  if (n === 1 && rng.chance(0.6)) return `a ${span}`;
  return `${spoken(n, rng)} ${span}${n === 1 ? '' : 's'}`;
}
/** "10 days", "1 week", "x 10 days" is the caller's. */
export function typeDuration(n: number, span: Span, rng: Random): string {
  const short = {
    day: ['days', 'days', 'd'],
    week: ['weeks', 'weeks', 'wks'],
    month: ['months', 'months', 'mos'],
  }[span];
  const unit = n === 1 ? span : rng.pick(short).replace(/^d$/, 'days');
  return `${n} ${unit}`;
}

export type Scale = 'F' | 'C';
export function sayTemperature(t: number, scale: Scale, rng: Random): string {
  const number = spoken(t, rng);
  return rng.weighted([
    [`${number} degrees`, 3],
    [number, 3],
    [`${number} degrees ${scale === 'F' ? 'fahrenheit' : 'celsius'}`, 1],
  ]);
}
export function typeTemperature(t: number, scale: Scale, rng: Random): string {
  return rng.pick([`${t} °${scale}`, `${t}°${scale}`, `${t} ${scale}`, `${t}${scale}`]);
}
