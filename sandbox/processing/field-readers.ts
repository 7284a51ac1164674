/**
 * Reading one form field's value out of the utterances that mention it, by the field's type:
 * numbers (spelled out or digits, with unit conversion for some vitals), enum options, yes/no
 * phrases, free text and dates.
 */
import type { FormField } from '../../src/shared/service';
import type { FieldHint } from './form-templates';
import { readDate } from './spoken-dates';
import { findNumbers, type NumberMatch } from './spoken-numbers';
import { findPhrase, negatedAt, SENTENCE_END, wordsOf } from './text-match';

export type FieldValue = string | number | boolean;

/** Where the field is mentioned in one utterance: the words, and the span of the matched phrase. */
export interface Mention {
  words: string[];
  start: number;
  end: number;
}

/** How far after its label a value may come ("heart rate today is about seventy two"). */
const VALUE_REACH = 6;

const inRange = (value: number, range?: [number, number]) =>
  range === undefined || (value >= range[0] && value <= range[1]);
const round1 = (value: number) => Math.round(value * 10) / 10;

/** The words from the end of the mention to the end of its sentence. */
function sentenceEnd(m: Mention): number {
  const end = m.words.indexOf(SENTENCE_END, m.end);
  return end < 0 ? m.words.length : end;
}

function numbersAfter(m: Mention): NumberMatch[] {
  const limit = Math.min(sentenceEnd(m), m.end + VALUE_REACH + 1);
  return findNumbers(m.words).filter((n) => n.start >= m.end && n.start < limit);
}

function readBloodPressure(m: Mention): string | undefined {
  const numbers = findNumbers(m.words).filter((n) => n.start >= m.end && n.end <= sentenceEnd(m));
  for (const [i, systolic] of numbers.entries()) {
    const diastolic = numbers[i + 1];
    if (!diastolic || m.words[systolic.end] !== 'over' || diastolic.start !== systolic.end + 1) continue;
    if (inRange(systolic.value, [50, 300]) && inRange(diastolic.value, [20, 200])) {
      return `${systolic.value}/${diastolic.value}`;
    }
  }
  return undefined;
}

/** °F; 30–45 is a Celsius reading ("thirty seven point two") and is converted. */
function readTemperature(m: Mention): number | undefined {
  for (const n of numbersAfter(m)) {
    const celsius = m.words.slice(n.end, n.end + 3).includes('celsius') || inRange(n.value, [30, 45]);
    if (celsius && inRange(n.value, [25, 45])) return round1((n.value * 9) / 5 + 32);
    if (inRange(n.value, [80, 115])) return n.value;
  }
  return undefined;
}

/** kg; "pounds" is converted, a bare number is taken as kilograms. */
function readWeight(m: Mention, range?: [number, number]): number | undefined {
  for (const n of numbersAfter(m)) {
    const unit = m.words[n.end] ?? '';
    const kg = ['pounds', 'pound', 'lbs', 'lb'].includes(unit) ? round1(n.value * 0.45359237) : n.value;
    if (inRange(kg, range)) return kg;
  }
  return undefined;
}

/** "seven out of ten" anywhere in the sentence, or a number right after "pain score is". */
function readScoreOfTen(m: Mention, range?: [number, number]): number | undefined {
  for (const n of findNumbers(m.words)) {
    const outOf = m.words[n.end] === 'out' && m.words[n.end + 1] === 'of';
    const of = findNumbers(m.words.slice(n.end + 2, n.end + 3))[0];
    if (outOf && of?.value === 10 && inRange(n.value, range)) return n.value;
  }
  // After a bare "pain" a number is usually a duration ("the pain started three days ago"); only
  // "pain score is six", or an answer to a question about it ("about a six"), is read directly.
  if (m.words[m.end - 1] === 'pain') return undefined;
  const direct = numbersAfter(m).find((n) => n.start <= m.end + 2);
  return direct && inRange(direct.value, range) ? direct.value : undefined;
}

function readNumber(m: Mention, hint: FieldHint): number | undefined {
  switch (hint.kind) {
    case 'temperature':
      return readTemperature(m);
    case 'weight':
      return readWeight(m, hint.range);
    case 'score_of_ten':
      return readScoreOfTen(m, hint.range);
    case 'number_before': {
      const before = findNumbers(m.words).find((n) => n.end === m.start);
      return before && inRange(before.value, hint.range) ? before.value : undefined;
    }
    default:
      return numbersAfter(m).find((n) => inRange(n.value, hint.range))?.value;
  }
}

/** Each option with every way of saying it, as words with spoken numbers made digits. */
function optionVariants(field: FormField, hint: FieldHint): { option: string; words: string[] }[] {
  return (field.options ?? []).flatMap((option) =>
    [option, ...(hint.synonyms?.[option] ?? [])].map((said) => ({ option, words: canonical(wordsOf(said)) })),
  );
}

/** Spoken numbers as digits, so "stage two" meets "Stage 2" and "times three" meets "x3". */
export function canonical(words: string[]): string[] {
  const numbers = findNumbers(words);
  const out: string[] = [];
  for (let i = 0; i < words.length;) {
    const n = numbers.find((x) => x.start === i);
    if (n) {
      out.push(String(n.value));
      i = n.end;
    } else {
      out.push((words[i] ?? '').replace(/^x(\d+)$/, 'times $1'));
      i += 1;
    }
  }
  return out.flatMap((w) => w.split(' '));
}

/** The longest option said in the sentence, not negated ("no wheezes" is not Wheezes). */
function readEnum(words: string[], field: FormField, hint: FieldHint): string | undefined {
  const said = canonical(words);
  let best: { option: string; length: number } | undefined;
  for (const variant of optionVariants(field, hint)) {
    const leadsWithNegation = ['no', 'not', 'non'].includes(variant.words[0] ?? '');
    const hit = findPhrase(said, variant.words).find((at) => leadsWithNegation || !negatedAt(said, at, 2));
    if (hit !== undefined && variant.words.length > (best?.length ?? 0)) {
      best = { option: variant.option, length: variant.words.length };
    }
  }
  return best?.option;
}

const LINKING = new Set('is are was were to of the a an my your his her'.split(' '));

/** The rest of the sentence after the label, without linking words ("allergic to penicillin" → "penicillin"). */
function readText(m: Mention): string | undefined {
  let from = m.end;
  while (LINKING.has(m.words[from] ?? '')) from += 1;
  const tail = m.words.slice(from, sentenceEnd(m));
  return tail.length > 0 ? tail.join(' ') : undefined;
}

/** The value of `field` in a sentence that mentions it, or undefined when it carries none. */
export function readValue(field: FormField, hint: FieldHint, mention: Mention): FieldValue | undefined {
  switch (field.type) {
    case 'number':
      return readNumber(mention, hint);
    case 'enum':
      return readEnum(mention.words, field, hint);
    case 'boolean':
      return mention.start >= 0 ? !negatedAt(mention.words, mention.start) : undefined;
    case 'date':
      return readDate(mention.words.slice(mention.end)) ?? readDate(mention.words);
    default:
      return hint.kind === 'blood_pressure' ? readBloodPressure(mention) : readText(mention);
  }
}

/** The value in an answer that follows a question about the field: the whole answer counts. */
export function readAnswer(field: FormField, hint: FieldHint, words: string[]): FieldValue | undefined {
  if (field.type === 'boolean') return undefined; // yes/no answers are read by the caller
  if (field.type === 'number' && hint.kind === 'number_before') return undefined;
  return readValue(field, hint, { words, start: -1, end: 0 });
}
