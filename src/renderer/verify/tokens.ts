/**
 * Text cut into tokens that remember where they stand in the text, so a value found in a note can
 * be marked there (a flag's start and end are offsets into the section's text). The same cutter
 * reads the service's note, the clinician's edit of it and the transcript lines: typed text (case,
 * digits, "150/90", "b.i.d.", "500mg", "38.2°C") and recognizer text (lowercase words, no punctuation).
 */

export type TokenType = 'word' | 'number' | 'mark';

export interface Token {
  /** Lowercase; a number without its thousands commas ("1,000" → "1000"); "b.i.d." → "bid". */
  text: string;
  type: TokenType;
  /** Offsets of the token in the text it was cut from: text.slice(start, end) is as written. */
  start: number;
  end: number;
  /** Which sentence of the text (or of the lines, once joined) the token belongs to. */
  sentence: number;
}

/**
 * One alternative per token type, tried in order at each position:
 * numbers with thousands commas or decimals (".5" too), dotted abbreviations ("b.i.d.", "q.d."),
 * degree units ("°F", "° C", "℃"), words (a letter, then letters, digits and apostrophes: "o2",
 * "q6h", "don't"), then any other single character as a mark.
 */
const TOKEN =
  /(\d{1,3}(?:,\d{3})+(?:\.\d+)?(?!\d)|\d+(?:\.\d+)?|\.\d+)|((?:[a-z]\.){2,}(?![a-z]))|([°º]\s?[cf](?![a-z])|[℃℉])|([a-zµ][a-z0-9µ'’]*)|(\S)/giy;
const SPACE = /\s+/y;

/** Marks that end a sentence: a negation or a number never reaches across them. */
const SENTENCE_END = new Set(['.', '?', '!', ';']);

function normalWord(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/^'+|'+$/g, '');
}

function degreeUnit(raw: string): string {
  if (raw === '℃') return '°c';
  if (raw === '℉') return '°f';
  return `°${raw.slice(-1).toLowerCase()}`;
}

/** The tokens of `text`, left to right. `firstSentence` numbers its sentences on from another text's. */
export function tokenize(text: string, firstSentence = 0): Token[] {
  const tokens: Token[] = [];
  let sentence = firstSentence;
  let at = 0;
  while (at < text.length) {
    SPACE.lastIndex = at;
    const space = SPACE.exec(text);
    if (space) {
      // A line break ends a sentence: a clinician's list ("- Lisinopril 10 mg\n- No fever") has no periods.
      if (space[0].includes('\n') && tokens.at(-1)?.sentence === sentence) sentence += 1;
      at = SPACE.lastIndex;
      continue;
    }
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (!m) break; // unreachable: (\S) matches any non-space
    const [raw, num, dotted, degree, word] = m;
    const start = at;
    at = TOKEN.lastIndex;
    if (num !== undefined) {
      tokens.push({ text: num.replace(/,/g, ''), type: 'number', start, end: at, sentence });
    } else if (dotted !== undefined) {
      tokens.push({ text: dotted.replace(/\./g, '').toLowerCase(), type: 'word', start, end: at, sentence });
      // "Aspirin 81 mg q.d. Metformin 500 mg b.i.d.": the abbreviation's last period ends the sentence.
      if (dotted.endsWith('.') && /^\s+[A-Z]/.test(text.slice(at, at + 8))) sentence += 1;
    } else if (degree !== undefined) {
      tokens.push({ text: degreeUnit(degree), type: 'word', start, end: at, sentence });
    } else if (word !== undefined) {
      const text = normalWord(word);
      if (text) tokens.push({ text, type: 'word', start, end: at, sentence });
    } else {
      // A hyphen inside a word ("ninety-eight", "left-sided") joins, it does not separate: dropped.
      const joins = raw === '-' && /[a-z]/i.test(text[start - 1] ?? '') && /[a-z]/i.test(text[at] ?? '');
      if (!joins) tokens.push({ text: raw, type: 'mark', start, end: at, sentence });
      if (SENTENCE_END.has(raw)) sentence += 1;
    }
  }
  return tokens;
}

/** Whether `t` is the word `word` (a convenience that reads well in the finders). */
export const isWord = (t: Token | undefined, ...words: string[]): boolean =>
  t !== undefined && t.type === 'word' && words.includes(t.text);

/** A mark that separates clauses or sentences (a negation's list and a number stop there). */
export const isBreak = (t: Token | undefined): boolean =>
  t !== undefined && t.type === 'mark' && /^[.?!;:,()[\]{}"—]$/.test(t.text);

/** The next token when it is in the same sentence as `tokens[i]`. */
export function sameSentence(tokens: readonly Token[], i: number, j: number): Token | undefined {
  const a = tokens[i];
  const b = tokens[j];
  return a !== undefined && b !== undefined && a.sentence === b.sentence ? b : undefined;
}
