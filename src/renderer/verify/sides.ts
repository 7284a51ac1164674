/**
 * Sides: left, right, bilateral ("both knees"), each with the body part it is the side of when one
 * is named, so a swapped side is caught even when the other side is said elsewhere ("left arm" in
 * the lines does not support "left knee"). "Left" and "right" count only beside a body part or as
 * "on the left": "I left work", "right now" and "all right" are not sides.
 */
import { isWord, type Token } from './tokens';

export type Side = 'left' | 'right' | 'bilateral';

export interface SideMention {
  side: Side;
  /** The body part, singular ("knee"), when one is named. */
  body?: string;
  /** The side's own token (the mark goes there). */
  at: number;
}

const BODY = new Set(
  (
    'arm forearm elbow wrist hand palm finger thumb shoulder axilla armpit leg thigh knee calf shin ankle ' +
    'foot heel toe hip groin buttock flank chest breast nipple lung lobe base ear eye eyelid cheek jaw ' +
    'temple face forehead neck back kidney ovary testicle testis quadrant extremity limb hemithorax ' +
    'tonsil nostril naris sinus clavicle rib scapula hamstring achilles hemisphere carotid pupil tympanic ' +
    'maxillary parotid sacroiliac lumbar iliac inguinal popliteal patella meniscus rotator trapezius'
  ).split(' '),
);
const IRREGULAR: Record<string, string> = {
  feet: 'foot',
  teeth: 'tooth',
  axillae: 'axilla',
  nares: 'naris',
  testes: 'testis',
};
/** Words that may stand between a side and its body part: "right lower quadrant", "left big toe". */
const QUALIFIERS = new Set(
  (
    'upper lower middle mid inner outer medial lateral anterior posterior great big little index ring small ' +
    'front distal proximal'
  ).split(' '),
);
const POSSESSIVES = new Set(['the', 'my', 'his', 'her', 'your', 'their', 'its']);
const PREPOSITIONS = new Set(['on', 'to', 'in', 'of', 'from', 'at', 'toward', 'towards']);

/** A body part's singular, or undefined when the word names none. */
export function bodyPart(word: string | undefined): string | undefined {
  if (!word) return undefined;
  const one =
    IRREGULAR[word] ?? (word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.replace(/(?<!s)s$/, ''));
  return BODY.has(one) ? one : undefined;
}

const same = (tokens: readonly Token[], i: number, j: number) =>
  tokens[j] !== undefined && tokens[j]!.sentence === tokens[i]!.sentence ? tokens[j] : undefined;

/**
 * The body part after a side word, across qualifiers ("right lower quadrant") or "side of the"
 * ("left side of the chest"); "side" or "sided" alone is a side with no part named.
 */
function partAfter(tokens: readonly Token[], i: number): { body?: string; found: boolean } {
  const word = (j: number) => {
    const t = same(tokens, i, j);
    return t?.type === 'word' ? t.text : undefined;
  };
  let j = i + 1;
  while (j <= i + 3 && QUALIFIERS.has(word(j) ?? '')) j += 1;
  const body = bodyPart(word(j));
  if (body && body !== 'side') return { body, found: true };
  if (!['side', 'sided', 'sides'].includes(word(j) ?? '')) return { found: false };
  const k = word(j + 1) === 'of' ? (POSSESSIVES.has(word(j + 2) ?? '') ? j + 3 : j + 2) : -1;
  const part = k > 0 ? bodyPart(word(k)) : undefined;
  return part ? { body: part, found: true } : { found: true };
}

/** The body part named just before ("the knee on the right", "edema in the legs bilaterally"). */
function partBefore(tokens: readonly Token[], i: number, reach: number): string | undefined {
  for (let j = i - 1; j >= Math.max(0, i - reach); j -= 1) {
    const t = same(tokens, i, j);
    if (!t || t.type !== 'word') return undefined;
    const body = bodyPart(t.text);
    if (body && body !== 'side') return body;
  }
  return undefined;
}

/** "on the left", "to my right": a side with no body part after it. */
function afterPreposition(tokens: readonly Token[], i: number): boolean {
  const owner = same(tokens, i, i - 1);
  const prep = same(tokens, i, i - 2);
  return (
    (owner?.type === 'word' &&
      POSSESSIVES.has(owner.text) &&
      prep?.type === 'word' &&
      PREPOSITIONS.has(prep.text)) ??
    false
  );
}

const mention = (side: Side, at: number, body: string | undefined): SideMention =>
  body ? { side, body, at } : { side, at };

/** Every side in `tokens`. */
export function findSides(tokens: readonly Token[]): SideMention[] {
  const found: SideMention[] = [];
  tokens.forEach((t, i) => {
    if (t.type !== 'word') return;
    const w = t.text;
    if (
      w === 'left' ||
      w === 'right' ||
      ((w === 'l' || w === 'r') && bodyPart(same(tokens, i, i + 1)?.text))
    ) {
      const side: Side = w.startsWith('l') ? 'left' : 'right';
      const after = partAfter(tokens, i);
      if (after.found) found.push(mention(side, i, after.body));
      else if (afterPreposition(tokens, i)) found.push(mention(side, i, partBefore(tokens, i - 2, 4)));
    } else if (w === 'bilateral' || w === 'bilaterally') {
      const after = partAfter(tokens, i);
      found.push(mention('bilateral', i, after.body ?? partBefore(tokens, i, 4)));
    } else if (w === 'both') {
      // "both knees", "both of my knees", "my knees on both sides"
      const of = isWord(same(tokens, i, i + 1), 'of') && POSSESSIVES.has(same(tokens, i, i + 2)?.text ?? '');
      const after = partAfter(tokens, of ? i + 2 : i);
      if (after.body) found.push(mention('bilateral', i, after.body));
      else if (isWord(same(tokens, i, i + 1), 'sides'))
        found.push(mention('bilateral', i, partBefore(tokens, i, 5)));
    }
  });
  return found;
}

/** Two mentions can be of the same place: the same body part, or one names none. */
export const sameBody = (a: SideMention, b: SideMention): boolean => !a.body || !b.body || a.body === b.body;

/** Whether the lines' mentions support one of the note's sides. */
export function sideSupported(note: SideMention, lines: readonly SideMention[]): boolean {
  if (lines.some((l) => l.side === note.side && sameBody(note, l))) return true;
  // "bilateral" is supported by the left and the right of the same part said apart.
  return (
    note.side === 'bilateral' &&
    lines.some((l) => l.side === 'left' && sameBody(note, l)) &&
    lines.some((l) => l.side === 'right' && sameBody(note, l))
  );
}

/** The side the lines name for the same place, when they name one (for a flag's `said`). */
export function sideSaid(note: SideMention, lines: readonly SideMention[]): SideMention | undefined {
  return note.body
    ? lines.find((l) => l.body === note.body && l.side !== note.side)
    : lines.find((l) => !l.body && l.side !== note.side);
}
