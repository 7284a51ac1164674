/**
 * The check (issue 38): each value that matters in a section's text, looked up in the transcript
 * lines the section cites. A value the lines do not support becomes a flag at its place in the
 * text, with what the lines said where they name a value of the same kind. Pure: no network, no
 * model, no DOM; the same text and lines always give the same flags.
 */
import { anchorsOf, scopeOf } from './anchors';
import { bareSupports, closestSaid, sameValue } from './compare';
import { negatedItems, occurrences, polarityAt, type NegatedItem } from './negation';
import { readLines, readNote, written, type Read } from './reading';
import { sideSaid, sideSupported } from './sides';
import type { ValueKind } from './values';

export type CheckKind = ValueKind | 'side' | 'negation';

export interface CheckFlag {
  /** Offsets of the value in the section's text: text.slice(start, end) is what the mark covers. */
  start: number;
  end: number;
  /** The value as written in the note ("1000 mg"; for a denied finding, "no chest pain"). */
  written: string;
  kind: CheckKind;
  /** What the lines said, when they name a value of the same kind ("500 mg"; "no chest pain"). */
  said?: string;
}

/** A transcript line as the check needs it (a TranscriptEntry is one). */
export interface SaidLine {
  transcript: string;
}

/** Which sentences of the lines hold something: a value of each kind, a bare number, a side. */
function sentencesWith(lines: Read): {
  kinds: Map<string, Set<number>>;
  bare: Set<number>;
  sides: Set<number>;
} {
  const kinds = new Map<string, Set<number>>();
  const sentence = (token: number) => lines.tokens[token]!.sentence;
  for (const v of lines.found.values) {
    let set = kinds.get(v.kind);
    if (!set) kinds.set(v.kind, (set = new Set()));
    set.add(sentence(v.first));
  }
  return {
    kinds,
    bare: new Set(lines.found.bare.map((b) => sentence(b.first))),
    sides: new Set(lines.sides.map((m) => sentence(m.at))),
  };
}

const ANCHORED = new Set<string>(['dose', 'frequency', 'duration']);

function valueFlags(note: Read, lines: Read): CheckFlag[] {
  const flags: CheckFlag[] = [];
  const holds = sentencesWith(lines);
  const sentence = (token: number) => lines.tokens[token]!.sentence;
  for (const value of note.found.values) {
    let pool = lines.found.values.filter((v) => v.kind === value.kind);
    let bare = lines.found.bare;
    const kind = holds.kinds.get(value.kind);
    // A vital sign's kind says what it is about ("pulse", "heart rate" and "HR" are one thing):
    // anchors pick among doses, frequencies and durations, which differ by what they are of.
    const scope = ANCHORED.has(value.kind)
      ? scopeOf(
          lines,
          anchorsOf(note, value.first, value.next),
          (s) => (kind?.has(s) ?? false) || holds.bare.has(s),
        )
      : undefined;
    if (scope) {
      const scoped = pool.filter((v) => scope.has(sentence(v.first)));
      const scopedBare = bare.filter((b) => scope.has(sentence(b.first)));
      if (scoped.length + scopedBare.length > 0) [pool, bare] = [scoped, scopedBare];
    }
    if (pool.some((v) => sameValue(value, v)) || bareSupports(value, bare)) continue;
    const said = closestSaid(
      note,
      value,
      lines,
      pool.filter((v) => !v.alternative),
    );
    const [start, end] = [note.tokens[value.first]!.start, note.tokens[value.next - 1]!.end];
    flags.push({
      start,
      end,
      written: written(note, value.first, value.next - 1),
      kind: value.kind,
      ...(said ? { said: said.shown } : {}),
    });
  }
  return flags;
}

function sideFlags(note: Read, lines: Read): CheckFlag[] {
  const holds = sentencesWith(lines).sides;
  const flags: CheckFlag[] = [];
  for (const side of note.sides) {
    let pool = lines.sides;
    const scope = scopeOf(lines, anchorsOf(note, side.at, side.at + 1), (s) => holds.has(s));
    if (scope) {
      const scoped = pool.filter((m) => scope.has(lines.tokens[m.at]!.sentence));
      if (scoped.length > 0) pool = scoped;
    }
    if (sideSupported(side, pool)) continue;
    const t = note.tokens[side.at]!;
    const said = sideSaid(side, pool) ?? sideSaid(side, lines.sides);
    flags.push({
      start: t.start,
      end: t.end,
      written: written(note, side.at, side.at),
      kind: 'side',
      ...(said ? { said: said.side } : {}),
    });
  }
  return flags;
}

/**
 * A finding the note denies that the lines do not: said instead ("no chest pain" where the line
 * says "chest pain"), or not mentioned at all, or only asked about with no answer.
 */
function addedNegations(note: Read, lines: Read): CheckFlag[] {
  const flags: CheckFlag[] = [];
  for (const item of negatedItems(note)) {
    const found = occurrences(lines, item.stems).map((o) => ({
      ...o,
      polarity: polarityAt(lines, o.first, o.last),
    }));
    if (found.some((o) => o.polarity === 'negated')) continue;
    const affirmed = found.find((o) => o.polarity === 'affirmed');
    const cue = written(note, item.cue, item.cue);
    const finding = written(note, item.first, item.last);
    // The mark covers the cue and the finding; a later finding of a list, the finding alone.
    const from = item.listed ? item.first : item.cue;
    flags.push({
      start: note.tokens[from]!.start,
      end: note.tokens[item.last]!.end,
      written: item.listed ? `${cue} ${finding}` : written(note, item.cue, item.last),
      kind: 'negation',
      ...(affirmed ? { said: written(lines, affirmed.first, affirmed.last) } : {}),
    });
  }
  return flags;
}

/** A finding the lines deny that the note states as present ("chest pain" where they say "no chest pain"). */
function droppedNegations(note: Read, lines: Read): CheckFlag[] {
  const flags: CheckFlag[] = [];
  const seen = new Set<number>();
  const said = new Map<string, NegatedItem>();
  for (const item of negatedItems(lines))
    said.set(item.stems.join(' '), said.get(item.stems.join(' ')) ?? item);
  for (const item of said.values()) {
    const inNote = occurrences(note, item.stems).filter(
      (o) => polarityAt(note, o.first, o.last) === 'affirmed',
    );
    if (inNote.length === 0) continue;
    // Said as present somewhere in the lines too ("chest pain since yesterday", "no chest pain at rest").
    if (occurrences(lines, item.stems).some((o) => polarityAt(lines, o.first, o.last) === 'affirmed'))
      continue;
    for (const o of inNote) {
      if (seen.has(o.first)) continue;
      seen.add(o.first);
      flags.push({
        start: note.tokens[o.first]!.start,
        end: note.tokens[o.last]!.end,
        written: written(note, o.first, o.last),
        kind: 'negation',
        said: `no ${written(lines, item.first, item.last)}`,
      });
    }
  }
  return flags;
}

/** Flags that overlap an earlier one are dropped: one mark per place in the text. */
function inOrder(flags: CheckFlag[]): CheckFlag[] {
  const sorted = [...flags].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: CheckFlag[] = [];
  for (const flag of sorted) {
    if (kept.length > 0 && flag.start < kept.at(-1)!.end) continue;
    kept.push(flag);
  }
  return kept;
}

/** The flags of a section's text against lines, both already read. */
export function checkRead(note: Read, lines: Read): CheckFlag[] {
  return inOrder([
    ...valueFlags(note, lines),
    ...sideFlags(note, lines),
    ...addedNegations(note, lines),
    ...droppedNegations(note, lines),
  ]);
}

/**
 * The flags of one section: `text` is what the section shows (the service's content or the
 * clinician's edit), `lines` the transcript lines it cites (linesToCheck picks them).
 */
export function checkSection(text: string, lines: readonly SaidLine[]): CheckFlag[] {
  return checkRead(readNote(text), readLines(lines.map((l) => l.transcript)));
}

/** The flag's accessible name: `Check: 1000 mg: said 500 mg`, or `Check: left: not in what was said`. */
export function flagName(flag: Pick<CheckFlag, 'written' | 'said'>): string {
  return flag.said === undefined
    ? `Check: ${flag.written}: not in what was said`
    : `Check: ${flag.written}: said ${flag.said}`;
}

/** A section heading's or the note header's count: "1 to check", "2 to check" (the UI shows none at 0). */
export function countLabel(n: number): string {
  return `${n} to check`;
}
