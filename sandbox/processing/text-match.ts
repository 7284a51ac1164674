/**
 * Word-level matching over transcript text, shared by the note generator and the form extractor.
 * Text from pocketsphinx is lowercase words; text from elsewhere may carry case, digits and
 * punctuation, so both are reduced to the same lowercase words first.
 */
import type { TranscriptEntry } from '../../src/shared/service';

export interface Utterance {
  id: string;
  text: string;
  words: string[];
}

/** Marks the end of a sentence inside an utterance, so phrases, numbers and negations stop there. */
export const SENTENCE_END = '|';

/**
 * Lowercase words; "120/80" becomes "120 over 80", "ninety-eight" two words, decimals stay whole,
 * and each . ? ! ; that ends a sentence becomes SENTENCE_END.
 */
export function wordsOf(text: string): string[] {
  const words = text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/(\d)\s*\/\s*(?=\d)/g, '$1 over ')
    .replace(/(\d)\s*%/g, '$1 percent')
    .replace(/\.(?!\d)|[?!;]/g, ` ${SENTENCE_END} `)
    .replace(/[^a-z0-9.'| ]+/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
  while (words.at(-1) === SENTENCE_END) words.pop();
  return words.filter((w, i) => w !== SENTENCE_END || (i > 0 && words[i - 1] !== SENTENCE_END));
}

/** The words without sentence marks. */
export const plainWords = (words: string[]) => words.filter((w) => w !== SENTENCE_END);

export function utterancesOf(entries: TranscriptEntry[]): Utterance[] {
  return entries.map((e) => ({ id: e.transcript_id, text: e.transcript, words: wordsOf(e.transcript) }));
}

/** A crude English stem, enough that "smoker", "smokes", "smoking" and "smoked" meet. */
export function stem(word: string): string {
  const w = word.replace(/'s$/, '');
  if (w.length <= 3) return w;
  for (const suffix of ['ings', 'ing', 'ers', 'er', 'ied', 'ies', 'ed', 'es', 's', 'e']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) return w.slice(0, -suffix.length);
  }
  return w;
}

/** Same word: equal stems, or one stem of five letters or more begins the other ("allerg"/"allergic"). */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [x, y] = [stem(a), stem(b)];
  if (x === y) return true;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  // Only a short ending may differ: "allerg"/"allergic" meet, "breath"/"breathles" do not.
  return short.length >= 5 && long.length - short.length <= 2 && long.startsWith(short);
}

/** Start indexes where `phrase` (already split into words) occurs in `words`. */
export function findPhrase(words: string[], phrase: string[]): number[] {
  const hits: number[] = [];
  if (phrase.length === 0) return hits;
  for (let i = 0; i + phrase.length <= words.length; i += 1) {
    if (phrase.every((p, k) => sameWord(words[i + k] ?? '', p))) hits.push(i);
  }
  return hits;
}

const NEGATION_CUES = new Set([
  'no',
  'not',
  'none',
  'never',
  'without',
  'denies',
  'denied',
  "don't",
  "doesn't",
  "didn't",
  "isn't",
  "aren't",
  "haven't",
  "hasn't",
  "wasn't",
  'negative',
  'quit',
  'stopped',
]);

/** Whether a negation cue sits within `reach` words before index `at` ("no facial droop"). */
export function negatedAt(words: string[], at: number, reach = 3): boolean {
  for (let i = at - 1; i >= Math.max(0, at - reach); i -= 1) {
    if (words[i] === SENTENCE_END) return false;
    if (NEGATION_CUES.has(words[i] ?? '')) return true;
  }
  return false;
}

const QUESTION_STARTS = new Set([
  'what',
  "what's",
  'when',
  'where',
  'why',
  'how',
  'which',
  'who',
  'do',
  'does',
  'did',
  'are',
  'is',
  'was',
  'were',
  'have',
  'has',
  'had',
  'any',
  'can',
  'could',
  'would',
  'will',
  'should',
]);

/** Openers skipped before looking for a question word ("good morning, what brings you in"). */
const OPENERS = new Set([
  'good',
  'morning',
  'afternoon',
  'evening',
  'hi',
  'hello',
  'okay',
  'ok',
  'so',
  'and',
  'well',
  'now',
  'alright',
  'right',
]);

/**
 * A question, from its punctuation or, for recognizer output (which has none), its first word after
 * any greeting. "Have you had any fever" is a question; "I have had a fever" is not.
 */
export function isQuestion(u: Utterance): boolean {
  if (u.text.trim().endsWith('?')) return true;
  const words = plainWords(u.words);
  let i = 0;
  while (i < words.length - 1 && OPENERS.has(words[i] ?? '')) i += 1;
  const [first, second] = [words[i], words[i + 1]];
  if (first === 'had' || first === 'was') return second === 'you' || second === 'there';
  return QUESTION_STARTS.has(first ?? '') && second !== undefined;
}

/** "yes" → true, "no" → false, otherwise undefined: a short answer to a yes/no question. */
export function yesOrNo(u: Utterance): boolean | undefined {
  const first = u.words[0];
  if (first === 'yes' || first === 'yeah' || first === 'yep' || first === 'sure') return true;
  if (first === 'no' || first === 'nope' || first === 'never' || first === 'none') return false;
  return undefined;
}

/** Sentence case with closing punctuation, for text that goes into a note. */
export function asSentence(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const cased = `${t.charAt(0).toUpperCase()}${t.slice(1)}`;
  return /[.!?]$/.test(cased) ? cased : `${cased}.`;
}
