/**
 * When a value in the lines is the same value as one in the note: the same kind, and the same
 * amount once units are brought to one base ("0.5 g" = "500 mg", "2 weeks" = "14 days", "38.2 °C"
 * = "100.8 °F"). And, when none is, which of the lines' values of that kind the note most likely
 * meant, so the flag can say what was said.
 */
import type { Read } from './reading';
import { isNumberWord } from './spoken-numbers';
import type { BareNumber, Value } from './values';

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * A temperature in °C. With no scale named ("temperature is thirty eight point two", "101
 * degrees"), the number says which: no body is 50 °C or 50 °F.
 */
function celsius(value: Value): number {
  const scale = value.unit?.base;
  const fahrenheit = scale === 'F' || ((scale === undefined || scale === 'degrees') && value.amount >= 50);
  return fahrenheit ? ((value.amount - 32) * 5) / 9 : value.amount;
}

export function sameValue(a: Value, b: Value): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'frequency':
      return a.frequency?.key === b.frequency?.key;
    case 'blood-pressure':
      return near(a.amount, b.amount) && near(a.second ?? NaN, b.second ?? NaN);
    case 'temperature':
      // Within 0.06 °C: a note that turns 100.8 °F into 38.2 °C has it right.
      return Math.abs(celsius(a) - celsius(b)) <= 0.06;
    case 'dose':
    case 'duration':
      return (
        a.unit !== undefined &&
        b.unit !== undefined &&
        a.unit.base === b.unit.base &&
        near(a.amount * a.unit.factor, b.amount * b.unit.factor)
      );
    default:
      return near(a.amount, b.amount);
  }
}

/**
 * A number said with no unit ("metformin five hundred twice a day", "it was a hundred and one")
 * supports a note's value of that number. A frequency has no number to say.
 */
export function bareSupports(value: Value, bare: readonly BareNumber[]): boolean {
  if (value.kind === 'frequency') return false;
  const has = (n: number) => bare.some((b) => near(b.value, n));
  return has(value.amount) && (value.second === undefined || has(value.second));
}

/** Stems of the words in a token's sentence: what a value is about ("aspirin", "pressure"). */
function sentenceWords(read: Read, token: number): Set<string> {
  const sentence = read.tokens[token]!.sentence;
  const words = new Set<string>();
  for (let j = read.sentenceStart.get(sentence) ?? token; read.tokens[j]?.sentence === sentence; j += 1) {
    const s = read.stems[j]!;
    if (s.length > 3 && !isNumberWord(read.tokens[j]!.text)) words.add(s);
  }
  return words;
}

/**
 * Of the lines' values of the note value's kind, the one said about the same thing: most words in
 * common with the note's sentence ("aspirin", "metformin"), then the same base unit, then the first.
 */
export function closestSaid(
  note: Read,
  value: Value,
  lines: Read,
  candidates: readonly Value[],
): Value | undefined {
  if (candidates.length <= 1) return candidates[0];
  const about = sentenceWords(note, value.first);
  let best: Value | undefined;
  let bestScore = -1;
  for (const c of candidates) {
    let score = 0;
    for (const w of sentenceWords(lines, c.first)) if (about.has(w)) score += 2;
    if (c.unit?.base === value.unit?.base) score += 1;
    if (score > bestScore) [best, bestScore] = [c, score];
  }
  return best;
}
