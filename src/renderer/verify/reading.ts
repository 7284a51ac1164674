/**
 * A text read once for the check: its tokens, which sentences are questions, each token's stem, and
 * the values and sides found in it. The transcript lines a section cites are read as one stream,
 * one sentence after another, so a question at the end of one line and the "No." that opens the
 * next stay neighbours; each token remembers which line it came from, to quote what was said.
 */
import { findSides, type SideMention } from './sides';
import { tokenize, type Token } from './tokens';
import { findValues, type Found, type Reading } from './values';

export interface Read {
  /** The note's text, or each line's. */
  texts: readonly string[];
  tokens: Token[];
  /** Which of `texts` each token comes from. */
  textOf: number[];
  /** Each token's stem (see `stem`), words only; '' for numbers and marks. */
  stems: string[];
  /** Sentences (by id) that ask: they end with "?", or, with no punctuation, open with a question word. */
  questions: Set<number>;
  /** The first token of each sentence. */
  sentenceStart: Map<number, number>;
  found: Found;
  sides: SideMention[];
  /** 1 for each token inside a value ("500", "mg", "twice", "a", "day"): no anchor is read there. */
  inValue: Uint8Array;
}

/**
 * A crude English stem, enough that "headaches"/"headache", "chills"/"chill", "vomiting"/"vomit"
 * meet. Both sides go through it, so it only has to be consistent, not correct.
 */
export function stem(word: string): string {
  const w = word.replace(/'s$/, '');
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  // Plurals: "rashes"/"rash", "boxes"/"box", but "knees"/"knee", "aches"/"ache" (only the s goes).
  if (/(ss|sh|x)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  for (const suffix of ['ing', 'ed']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) return w.slice(0, -suffix.length);
  }
  return w;
}

const QUESTION_WORDS = new Set(
  (
    "what what's when where why how which who do does did are is was were have has had any can could " +
    'would will should'
  ).split(' '),
);
const OPENERS = new Set(
  'good morning afternoon evening hi hello okay ok so and well now alright right'.split(' '),
);

function findQuestions(tokens: readonly Token[], sentenceStart: Map<number, number>): Set<number> {
  const questions = new Set<number>();
  const ends = new Map<number, Token>();
  for (const t of tokens) ends.set(t.sentence, t);
  for (const [sentence, first] of sentenceStart) {
    const last = ends.get(sentence)!;
    if (last.text === '?') {
      questions.add(sentence);
      continue;
    }
    if (last.type === 'mark' && /^[.!;]$/.test(last.text)) continue;
    // Recognizer text has no punctuation: "any fever or chills" asks, "no fever and no chills" does not.
    let i = first;
    while (tokens[i + 1]?.sentence === sentence && OPENERS.has(tokens[i]!.text)) i += 1;
    const [a, b] = [tokens[i], tokens[i + 1]];
    if (a && b?.sentence === sentence && QUESTION_WORDS.has(a.text)) {
      if ((a.text === 'had' || a.text === 'was') && !['you', 'there'].includes(b.text)) continue;
      questions.add(sentence);
    }
  }
  return questions;
}

function finish(texts: readonly string[], tokens: Token[], textOf: number[], reading: Reading): Read {
  const sentenceStart = new Map<number, number>();
  tokens.forEach((t, i) => {
    if (!sentenceStart.has(t.sentence)) sentenceStart.set(t.sentence, i);
  });
  const found = findValues(tokens, reading);
  const inValue = new Uint8Array(tokens.length);
  for (const v of found.values) inValue.fill(1, v.first, v.next);
  return {
    texts,
    tokens,
    textOf,
    stems: tokens.map((t) => (t.type === 'word' ? stem(t.text) : '')),
    questions: findQuestions(tokens, sentenceStart),
    sentenceStart,
    found,
    sides: findSides(tokens),
    inValue,
  };
}

/** A section's text (the service's or the clinician's edit). */
export function readNote(text: string): Read {
  const tokens = tokenize(text);
  return finish([text], tokens, new Array<number>(tokens.length).fill(0), 'note');
}

/** Transcript lines, as one stream; each line starts a sentence. */
export function readLines(lines: readonly string[]): Read {
  const tokens: Token[] = [];
  const textOf: number[] = [];
  let sentence = 0;
  lines.forEach((line, n) => {
    const own = tokenize(line, sentence);
    for (const t of own) {
      tokens.push(t);
      textOf.push(n);
    }
    sentence = (own.at(-1)?.sentence ?? sentence - 1) + 1;
  });
  return finish(lines, tokens, textOf, 'line');
}

/** The text of tokens first..last (inclusive) as written; they are from one text. */
export function written(read: Read, first: number, last: number): string {
  const text = read.texts[read.textOf[first]!]!;
  return text.slice(read.tokens[first]!.start, read.tokens[last]!.end);
}
