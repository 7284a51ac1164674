/**
 * What a value is about, so that it is looked up where that thing was said. "Metformin 500 mg TID"
 * must be supported by what was said about metformin: a "three times a day" said of lorazepam in
 * the same cited lines does not support it. The words around a value in the note that name a
 * thing (a drug, a symptom, a body part: its anchors) pick the line sentences that name it too; the
 * value is looked up there (or in the sentence after, when the value came a breath later). When no
 * line names the thing, or those sentences say no value of the kind, every cited line counts.
 */
import type { Read } from './reading';
import { bodyPart } from './sides';
import { isNumberWord } from './spoken-numbers';

/** Words that name nothing a value could be about: charting verbs, time, sides, function words. */
const NOT_ANCHORS = new Set(
  (
    'take takes taking took start started starting continue continued reports reported endorses complains ' +
    'denies with from that this than then they them their there your have having been were will would should ' +
    'could about after before since past last over under into also each every once twice thrice daily time ' +
    'times what when where which while patient today tonight morning night evening week weeks days month months ' +
    'year years hour hours minute minutes some much many more most less left right both side sides bilateral ' +
    "bilaterally going want like just very well okay take i'm i've it's let's that's there's dose doses tablet " +
    'tablets pill pills per for the and but are was'
  ).split(' '),
);

/** Whether a token's stem may say what a value is about. */
function anchorAt(read: Read, j: number): string | undefined {
  const t = read.tokens[j]!;
  // A body part by its singular ("feet" names the foot), other words by their stem.
  const s = bodyPart(t.text) ?? read.stems[j]!;
  if (
    t.type !== 'word' ||
    s.length < 4 ||
    read.inValue[j] ||
    NOT_ANCHORS.has(t.text) ||
    NOT_ANCHORS.has(s) ||
    isNumberWord(t.text)
  ) {
    return undefined;
  }
  return s;
}

/** Words in tokens [from, to) that are not part of the value (first..next) itself. */
function collect(read: Read, from: number, to: number, first: number, next: number, into: Set<string>): void {
  for (let j = from; j < to; j += 1) {
    if (j >= first && j < next) continue;
    const a = anchorAt(read, j);
    if (a) into.add(a);
  }
}

/**
 * The anchors of the note's value at tokens first..next: the words of its clause (between commas),
 * or of its sentence when the clause has none ("Acetaminophen 325 mg, two times daily").
 */
export function anchorsOf(note: Read, first: number, next: number): Set<string> {
  const { tokens } = note;
  const sentence = tokens[first]!.sentence;
  const isClauseEnd = (j: number) =>
    tokens[j]!.type === 'mark' && (tokens[j]!.text === ',' || tokens[j]!.text === ';');
  let from = first;
  while (from > 0 && tokens[from - 1]!.sentence === sentence && !isClauseEnd(from - 1)) from -= 1;
  let to = next;
  while (to < tokens.length && tokens[to]!.sentence === sentence && !isClauseEnd(to)) to += 1;
  const anchors = new Set<string>();
  collect(note, from, to, first, next, anchors);
  if (anchors.size === 0) {
    const start = note.sentenceStart.get(sentence)!;
    let end = start;
    while (end < tokens.length && tokens[end]!.sentence === sentence) end += 1;
    collect(note, start, end, first, next, anchors);
  }
  return anchors;
}

/** Each sentence of the lines with its anchors, made once per reading of the lines. */
const SENTENCE_ANCHORS = new WeakMap<Read, Map<string, Set<number>>>();

function sentencesNaming(lines: Read): Map<string, Set<number>> {
  let index = SENTENCE_ANCHORS.get(lines);
  if (!index) {
    index = new Map();
    for (let j = 0; j < lines.tokens.length; j += 1) {
      const a = anchorAt(lines, j);
      if (!a) continue;
      let set = index.get(a);
      if (!set) index.set(a, (set = new Set()));
      set.add(lines.tokens[j]!.sentence);
    }
    SENTENCE_ANCHORS.set(lines, index);
  }
  return index;
}

/**
 * The line sentences that name most of the anchors, or undefined when none names any (then every
 * line counts). `has(sentence)` says whether a sentence holds a value of the kind looked for: one
 * that holds none lends its place to the sentence after it.
 */
export function scopeOf(
  lines: Read,
  anchors: ReadonlySet<string>,
  has: (sentence: number) => boolean,
): Set<number> | undefined {
  if (anchors.size === 0) return undefined;
  const index = sentencesNaming(lines);
  const hits = new Map<number, number>();
  for (const a of anchors) for (const s of index.get(a) ?? []) hits.set(s, (hits.get(s) ?? 0) + 1);
  if (hits.size === 0) return undefined;
  const best = Math.max(...hits.values());
  const scope = new Set<number>();
  for (const [s, n] of hits) {
    if (n !== best) continue;
    scope.add(s);
    if (!has(s)) scope.add(s + 1);
  }
  return scope;
}
