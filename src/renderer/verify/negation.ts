/**
 * Negations: what a sentence says is absent ("no chest pain", "denies fever, chills or night
 * sweats", "without nausea", "I don't have any cough"), and whether a finding is said, denied or
 * only asked about where it stands. A yes/no question takes its answer's polarity ("Any chest
 * pain?" "No." denies it). Deliberately local: a cue reaches a few words to its right, across a list
 * but not into a new clause ("no fever, has a cough" affirms the cough).
 */
import { isNumberWord } from './spoken-numbers';
import { isWord, type Token } from './tokens';
import type { Read } from './reading';

export type Polarity = 'affirmed' | 'negated' | 'asked';

/** Words that deny what follows them. */
const CUES = new Set(
  (
    "no not never without denies denied deny denying none nor neither don't doesn't didn't haven't hasn't " +
    "hadn't isn't aren't wasn't weren't won't can't cannot dont doesnt didnt havent hasnt"
  ).split(' '),
);
/** After "no", a word that makes it no finding's negation: "no one", "no longer", "no idea". */
const NOT_A_FINDING = new Set('one longer matter doubt way worries thanks idea need problem'.split(' '));
/** Words between a cue and its finding: "denies any", "has not had", "no known", "no evidence of". */
const LEAD_INS = new Set(
  (
    'any other known significant recent new further obvious acute additional a an the such have had has having ' +
    'experienced experience experiencing report reported reports reporting noticed notice noted get gets got ' +
    'getting feel feels felt been evidence of signs sign symptoms really'
  ).split(' '),
);
/** "problems with", "trouble with": a lead-in when "with" follows. */
const TROUBLE = new Set(['problems', 'problem', 'trouble', 'issues', 'issue']);
/** Words that end a finding: who did what, when and where ("no pain when I walk", "no fever since Monday"). */
const ENDS_FINDING = new Set(
  (
    'i you he she it we they me him them my your his her their our is are was were be been am has have had do ' +
    'does did will would can could should may might must reports reported states stated says said endorses ' +
    'endorsed complains notes noted describes feels felt takes took started presents appears for since in at ' +
    'on with when after before during to from than because if while but so that which as per until today ' +
    'yesterday now currently this these those there here and or nor also either'
  ).split(' '),
);
/** Words that end a cue's reach going back: a new clause starts there. */
const CLAUSE_STARTS = new Set(
  'but however although though except whereas if whether because when while which who that than until unless since after before'.split(
    ' ',
  ),
);
/** Past a comma or "and", these mean a new clause ("no fever, has a cough"), not a list. */
const NEW_CLAUSE = new Set(
  (
    'i you he she we they patient is are was were has have had reports states says endorses complains notes ' +
    'describes feels takes started presents does did will would can could'
  ).split(' '),
);
/** Said after a finding: "chest pain: denies", "fever absent", "cough - none". */
const AFTER_CUES = new Set('absent denies denied negative none no resolved'.split(' '));

const MAX_ITEM_WORDS = 4;
/** How far back a cue reaches, in words: far enough for "denies sore throat, shortness of breath, or fever". */
const REACH = 10;

/** Whether token j denies what follows it ("no," and "No." answer; they deny nothing after them). */
export function isCue(tokens: readonly Token[], j: number): boolean {
  const t = tokens[j];
  if (!t || t.type !== 'word') return false;
  const next = tokens[j + 1];
  const sameSentence = next !== undefined && next.sentence === t.sentence;
  if (t.text === 'negative' || t.text === 'free')
    return sameSentence && isWord(next, t.text === 'free' ? 'of' : 'for');
  if (!CUES.has(t.text)) return false;
  if (t.text === 'no' && (!sameSentence || next.type !== 'word' || NOT_A_FINDING.has(next.text)))
    return false;
  return true;
}

/** "no", "nope", "yes": how the sentence that answers a question starts. */
function answer(read: Read, sentence: number): Polarity | undefined {
  const first = read.sentenceStart.get(sentence);
  const t = first === undefined ? undefined : read.tokens[first];
  if (!t) return undefined;
  if (isWord(t, 'no', 'nope', 'nah', 'never', 'none')) return 'negated';
  if (isWord(t, 'not') && isWord(read.tokens[first! + 1], 'really')) return 'negated';
  if (isWord(t, 'yes', 'yeah', 'yep', 'yup', 'sure', 'correct')) return 'affirmed';
  return undefined;
}

/** What the text says of the finding at tokens first..last: said, denied, or only asked. */
export function polarityAt(read: Read, first: number, last: number): Polarity {
  const { tokens } = read;
  const sentence = tokens[first]!.sentence;
  if (read.questions.has(sentence)) return answer(read, sentence + 1) ?? 'asked';
  let newClause = false;
  let words = 0;
  for (let j = first - 1; j >= 0 && words < REACH; j -= 1) {
    const t = tokens[j]!;
    if (t.sentence !== sentence) break;
    if (t.type === 'mark') {
      if (t.text === ',' || t.text === ':') {
        if (newClause) break;
        continue;
      }
      if (t.text === '-' || t.text === '/') continue;
      break;
    }
    words += 1;
    if (t.type !== 'word') continue;
    if (CLAUSE_STARTS.has(t.text)) break;
    if (isCue(tokens, j)) return 'negated';
    if (t.text === 'and' || t.text === 'or') {
      if (newClause) break;
      continue;
    }
    if (NEW_CLAUSE.has(t.text)) newClause = true;
  }
  // "Chest pain: denies." "Fever: none."
  for (let j = last + 1; j <= last + 3; j += 1) {
    const t = tokens[j];
    if (!t || t.sentence !== sentence) break;
    if (t.type === 'mark' && /^[:=,-]$/.test(t.text)) continue;
    if (t.type === 'word' && AFTER_CUES.has(t.text)) return 'negated';
    break;
  }
  return 'affirmed';
}

export interface NegatedItem {
  /** The cue's token ("no", "denies"). */
  cue: number;
  /** The finding's tokens, first to last inclusive. */
  first: number;
  last: number;
  /** Its words' stems, lead-ins and "of" left out: what is looked for on the other side. */
  stems: string[];
  /** Later in a list ("No fever, chills": chills), so not right after its cue. */
  listed: boolean;
}

const isContent = (t: Token | undefined) =>
  t !== undefined &&
  t.type === 'word' &&
  !ENDS_FINDING.has(t.text) &&
  !CUES.has(t.text) &&
  !isNumberWord(t.text);

/** The findings each cue denies: "denies fever, chills, or night sweats" → fever, chills, night sweats. */
export function negatedItems(read: Read): NegatedItem[] {
  const { tokens, stems } = read;
  const items: NegatedItem[] = [];
  for (let c = 0; c < tokens.length; c += 1) {
    const sentence = tokens[c]!.sentence;
    // "Any fever or chills?" answered "No.": the question's "any" denies, as a cue would.
    const asked = read.questions.has(sentence);
    if (asked ? !(isWord(tokens[c], 'any') && answer(read, sentence + 1) === 'negated') : !isCue(tokens, c))
      continue;
    const at = (j: number) => (tokens[j]?.sentence === sentence ? tokens[j] : undefined);
    let j = c + (isWord(tokens[c], 'negative', 'free') ? 2 : 1);
    if (asked) j = c;
    let listed = false;
    for (;;) {
      // "any", "have had", "problems with": words before the finding, not the finding.
      for (;;) {
        const w = at(j)?.type === 'word' ? at(j)!.text : '';
        if (LEAD_INS.has(w)) j += 1;
        else if (TROUBLE.has(w) && isWord(at(j + 1), 'with')) j += 2;
        else break;
      }
      if (!isContent(at(j))) break;
      const first = j;
      let last = j;
      while (
        last - first + 1 < MAX_ITEM_WORDS &&
        (isContent(at(last + 1)) || (isWord(at(last + 1), 'of') && isContent(at(last + 2))))
      ) {
        last += isWord(at(last + 1), 'of') ? 2 : 1;
      }
      const own = [];
      for (let k = first; k <= last; k += 1) if (!LEAD_INS.has(tokens[k]!.text)) own.push(stems[k]!);
      if (own.length > 0) items.push({ cue: c, first, last, stems: own, listed });
      // A list goes on after a comma, "or", "and" or "nor" when a finding follows.
      j = last + 1;
      if (at(j)?.text === ',') j += 1;
      if (isWord(at(j), 'or', 'and', 'nor')) j += 1;
      if (j === last + 1 || !isContent(at(j)) || isCue(tokens, j)) break;
      listed = true;
    }
  }
  return items;
}

/** Where the words `wanted` (stems) stand together in one sentence, any order, a few words apart. */
export function occurrences(read: Read, wanted: readonly string[]): { first: number; last: number }[] {
  const found: { first: number; last: number }[] = [];
  const set = new Set(wanted);
  const span = wanted.length + 3;
  const { stems, tokens } = read;
  for (let p = 0; p < tokens.length; p += 1) {
    if (!set.has(stems[p]!)) continue;
    const seen = new Set<string>();
    let last = p;
    for (
      let k = p;
      k < Math.min(tokens.length, p + span) && tokens[k]!.sentence === tokens[p]!.sentence;
      k += 1
    ) {
      if (set.has(stems[k]!) && !seen.has(stems[k]!)) {
        seen.add(stems[k]!);
        last = k;
      }
      if (seen.size === set.size) break;
    }
    if (seen.size === set.size) {
      found.push({ first: p, last });
      p = last;
    }
  }
  return found;
}
