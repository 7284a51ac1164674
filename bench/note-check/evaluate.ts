/**
 * How well the check does on a visit's two notes: the flags on the clean note (each one false), and,
 * for every value in it, a copy of its section with one error in that value (a number or a unit
 * changed, a frequency changed, a side swapped, a negation dropped or added), caught when a flag
 * covers the changed value. The check always reads the visit's own transcript: the error is in the
 * note, never in what was said.
 */
import { checkSection, linesToCheck, type CheckFlag } from '../../src/renderer/verify';
import type { TranscriptEntry } from '../../src/shared/service';
import type { SaidLine } from './facts';
import type { Random } from './random';
import type { Category, Slot } from './slots';
import { noteSentence, sandboxNote, writtenText, type Visit, type WrittenSection } from './visits';

export class Tally {
  values = 0;
  sections = 0;
  falseFlags = 0;
  injected = new Map<Category, number>();
  caught = new Map<Category, number>();
  /** A few of each, for the report and for reading what the check gets wrong. */
  falseExamples: string[] = [];
  missedExamples: string[] = [];

  count(category: Category, hit: boolean, example: () => string): void {
    this.injected.set(category, (this.injected.get(category) ?? 0) + 1);
    if (hit) this.caught.set(category, (this.caught.get(category) ?? 0) + 1);
    else if (this.missedExamples.length < 40) this.missedExamples.push(example());
  }

  clean(flags: readonly CheckFlag[], content: string): void {
    this.sections += 1;
    this.falseFlags += flags.length;
    for (const f of flags) {
      if (this.falseExamples.length < 40)
        this.falseExamples.push(
          `${f.kind} "${f.written}" said ${f.said ?? '-'} in: ${content.slice(Math.max(0, f.start - 60), f.end + 40)}`,
        );
    }
  }

  get allInjected(): number {
    return [...this.injected.values()].reduce((a, b) => a + b, 0);
  }
  get allCaught(): number {
    return [...this.caught.values()].reduce((a, b) => a + b, 0);
  }
}

const covers = (flags: readonly CheckFlag[], start: number, end: number) =>
  flags.some((f) => f.start < end && f.end > start);

function withOne(slots: readonly Slot[], index: number, slot: Slot): Slot[] {
  const copy = [...slots];
  copy[index] = slot;
  return copy;
}

/** The note as a clinician types it. */
export function evaluateWritten(
  visit: Visit,
  sections: readonly WrittenSection[],
  rng: Random,
  tally: Tally,
): void {
  for (const section of sections) {
    const lines = linesToCheck(section.sources, visit.transcript);
    const clean = writtenText(visit, section);
    tally.clean(checkSection(clean.content, lines), clean.content);
    for (const span of clean.spans) {
      const slots = visit.facts[span.fact]!.fact.slots;
      const slot = slots[span.slot]!;
      if (slot.counts) tally.values += 1;
      const category = rng.pick(slot.errors);
      const wrong = slot.withError(category, rng);
      if (wrong.typed === slot.typed) continue;
      const copy = writtenText(visit, section, { fact: span.fact, slots: withOne(slots, span.slot, wrong) });
      const target = copy.spans.find((s) => s.fact === span.fact && s.slot === span.slot)!;
      const flags = checkSection(copy.content, lines);
      tally.count(category, covers(flags, target.start, target.end), () => {
        const cited = section.sources ? `${section.sources.length} cited lines` : 'whole transcript';
        return `written ${category}: "${slot.typed}" → "${wrong.typed}" (${cited}) in: ${copy.content.slice(Math.max(0, target.start - 50), target.end + 30)}`;
      });
    }
  }
}

/** The note the sandbox writes from the transcript: its sentences are the cited lines. */
export function evaluateSandbox(visit: Visit, rng: Random, tally: Tally): void {
  const byId = new Map(visit.transcript.map((e) => [e.transcript_id, e]));
  const owner = new Map<string, { fact: number; line: number }>();
  visit.facts.forEach((p, fact) => p.ids.forEach((id, line) => owner.set(id, { fact, line })));

  for (const section of sandboxNote(visit.transcript)) {
    if (!section.sources) continue; // nothing found: nothing to check
    const lines = linesToCheck(section.sources, visit.transcript);
    tally.clean(checkSection(section.content, lines), section.content);
    const entries = section.sources.map((id) => byId.get(id)!);
    if (entries.map(noteSentence).join(' ') !== section.content)
      throw new Error('the sandbox note is not its lines');

    // The values the section carries: each slot of a fact whose line it cites, once.
    const carried = new Map<string, { fact: number; slot: number }>();
    for (const id of section.sources) {
      const o = owner.get(id);
      if (!o) continue;
      const fact = visit.facts[o.fact]!.fact;
      for (const piece of fact.lines(fact.slots)[o.line]!.pieces) {
        if (piece.slot !== undefined)
          carried.set(`${o.fact}:${piece.slot}`, { fact: o.fact, slot: piece.slot });
      }
    }
    for (const { fact: f, slot: k } of carried.values()) {
      const fact = visit.facts[f]!.fact;
      const slot = fact.slots[k]!;
      if (slot.counts) tally.values += 1;
      if (!fact.saidErrors) continue;
      const category = rng.pick(slot.errors);
      const wrongSlots = withOne(fact.slots, k, slot.withError(category, rng));
      const wrongLines = fact.lines(wrongSlots);
      injectSaid(entries, owner, f, k, slot, wrongLines, section.content, lines, category, tally);
    }
  }
}

/** One error said in the sandbox's note: the fact's cited sentences rewritten with the wrong value. */
function injectSaid(
  entries: readonly TranscriptEntry[],
  owner: Map<string, { fact: number; line: number }>,
  f: number,
  k: number,
  slot: Slot,
  wrongLines: readonly SaidLine[],
  content: string,
  lines: readonly TranscriptEntry[],
  category: Category,
  tally: Tally,
): void {
  let changed = false;
  let at = 0;
  let text = '';
  let region: [number, number] | undefined;
  let target: [number, number] | undefined;
  entries.forEach((entry, n) => {
    if (n > 0) text += ' ';
    at = text.length;
    const o = owner.get(entry.transcript_id);
    let sentence = noteSentence(entry);
    if (o?.fact === f) {
      const pieces = wrongLines[o.line]!.pieces;
      const said = pieces.map((p) => p.text).join('');
      if (said !== entry.transcript) {
        changed = true;
        sentence = noteSentence({ ...entry, transcript: said });
        let offset = 0;
        for (const p of pieces) {
          if (p.slot === k && !target) target = [at + offset, at + offset + p.text.length];
          offset += p.text.length;
        }
      }
      region = [region?.[0] ?? at, at + sentence.length];
    }
    text += sentence;
  });
  if (!changed || !region) return;
  // A negation's error shows on the finding, which may be in the question before the answer changed.
  const [start, end] = slot.kind === 'negation' || !target ? region : target;
  const flags = checkSection(text, lines);
  tally.count(
    category,
    covers(flags, start, end),
    () => `sandbox ${category}: ${content.length > 0 ? text.slice(Math.max(0, start - 50), end + 30) : ''}`,
  );
}
