/**
 * Visits for the benchmark, built on the project's fixtures: each starts from the turns of one of
 * the recorded conversations (e2e/fixtures/*.turns.json, whose words are their transcript lines) or
 * the sandbox's synthetic visit, and goes on with generated facts, small talk drawn from the
 * sandbox's clinical corpus between them. Each visit has two notes: one typed as a clinician charts
 * (values in digits and abbreviations, each section citing the lines its facts were said in, some
 * citing none), and the one the sandbox's own note writer makes from the transcript.
 */
import { readFileSync } from 'node:fs';
import { generateNote } from '../../sandbox/processing/note-generator';
import { VISIT } from '../../sandbox/processing/test-speech';
import { asSentence, isQuestion, utterancesOf } from '../../sandbox/processing/text-match';
import { offsetFromMs, type TranscriptEntry } from '../../src/shared/service';
import {
  complaint,
  denied,
  examSide,
  FINDINGS,
  medication,
  present,
  vitals,
  type Fact,
  type Piece,
  type SectionKey,
} from './facts';
import type { Random } from './random';
import type { Slot } from './slots';

export interface Turn {
  speaker: string;
  text: string;
}

/** The fixtures' conversations and the sandbox's synthetic visit, as lines. */
export function backbones(): { name: string; turns: Turn[] }[] {
  const fixture = (name: string) => {
    const file = JSON.parse(readFileSync(`e2e/fixtures/${name}.turns.json`, 'utf8')) as {
      turns: { speaker: string; words: string }[];
    };
    return { name, turns: file.turns.map((t) => ({ speaker: t.speaker, text: t.words })) };
  };
  const visit = VISIT.map((t, i) => ({ speaker: i % 2 === 0 ? 'clinician' : 'patient', text: t.text }));
  return [fixture('conversation'), fixture('telehealth'), { name: 'sandbox VISIT', turns: visit }];
}

/** Small talk between the facts: the sandbox's clinical corpus, one sentence a line. */
export function smallTalk(): string[] {
  return readFileSync('sandbox/processing/language-model/clinical-corpus.txt', 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

export interface PlacedFact {
  fact: Fact;
  /** The transcript ids of its lines, in order. */
  ids: string[];
}

export interface Visit {
  transcript: TranscriptEntry[];
  facts: PlacedFact[];
}

const textOf = (pieces: readonly Piece[]) => pieces.map((p) => p.text).join('');

/** The facts of one visit: a few of each kind, findings denied and present never the same. */
function someFacts(rng: Random, count: number): Fact[] {
  const findings = rng.sample(FINDINGS, 6);
  const facts: Fact[] = [vitals(rng), denied(rng, findings.slice(0, rng.int(1, 3)))];
  let present_ = 3;
  while (facts.length < count) {
    const kind = rng.weighted<string>([
      ['taken', 3],
      ['started', 2],
      ['complaint', 3],
      ['exam', 2],
      ['denied', 1],
      ['present', 1],
    ]);
    if (kind === 'taken' || kind === 'started') facts.push(medication(rng, kind === 'started'));
    else if (kind === 'complaint') facts.push(complaint(rng));
    else if (kind === 'exam') facts.push(examSide(rng));
    else if (kind === 'present' && present_ < findings.length)
      facts.push(present(rng, findings[present_++]!));
    else if (kind === 'denied' && present_ < findings.length)
      facts.push(denied(rng, [findings[present_++]!]));
  }
  return rng.sample(facts, facts.length);
}

/**
 * A visit: the backbone's turns, then each fact's lines with 0–`chatter` lines of small talk before
 * it, then small talk until `lines` when asked for (a long visit).
 */
export function makeVisit(
  rng: Random,
  backbone: Turn[],
  talk: string[],
  facts: number,
  chatter = 2,
  lines = 0,
): Visit {
  const transcript: TranscriptEntry[] = [];
  const add = (text: string, speaker: string) => {
    const i = transcript.length;
    transcript.push({
      transcript_id: `t${i + 1}`,
      transcript: text,
      speaker,
      start_offset: offsetFromMs(i * 6000),
      end_offset: offsetFromMs(i * 6000 + 5000),
    });
    return `t${i + 1}`;
  };
  for (const turn of backbone) add(turn.text, turn.speaker);
  const placed = someFacts(rng, facts).map((fact) => {
    for (let k = rng.int(0, chatter); k > 0; k -= 1) add(rng.pick(talk), rng.pick(['clinician', 'patient']));
    return { fact, ids: fact.lines(fact.slots).map((line) => add(textOf(line.pieces), line.speaker)) };
  });
  while (transcript.length < lines) add(rng.pick(talk), rng.pick(['clinician', 'patient']));
  return { transcript, facts: placed };
}

/** Where a slot's value stands in a section's text. */
export interface SlotSpan {
  fact: number;
  slot: number;
  start: number;
  end: number;
}

export interface WrittenSection {
  title: SectionKey;
  /** The visit's facts in this section, in order. */
  facts: number[];
  /** Joins the facts' sentences: a space, or a line break (a clinician's list). */
  joiner: string;
  sources?: string[];
}

/** A section's text from its facts, one fact's slots replaced (an injected error), and where each value is. */
export function writtenText(
  visit: Visit,
  section: WrittenSection,
  replaced?: { fact: number; slots: readonly Slot[] },
): { content: string; spans: SlotSpan[] } {
  let content = '';
  const spans: SlotSpan[] = [];
  section.facts.forEach((f, n) => {
    if (n > 0) content += section.joiner;
    const fact = visit.facts[f]!.fact;
    for (const piece of fact.note(replaced?.fact === f ? replaced.slots : fact.slots)) {
      if (piece.slot !== undefined)
        spans.push({
          fact: f,
          slot: piece.slot,
          start: content.length,
          end: content.length + piece.text.length,
        });
      content += piece.text;
    }
  });
  return { content, spans };
}

/** The note as typed: facts grouped by section; a section cites its facts' lines, or (`uncited` of them) none. */
export function writtenNote(visit: Visit, rng: Random, uncited: number): WrittenSection[] {
  const order: SectionKey[] = [
    'HISTORY_OF_PRESENT_ILLNESS',
    'MEDICATIONS',
    'PHYSICAL_EXAM',
    'REVIEW_OF_SYSTEMS',
    'PLAN',
  ];
  return order.flatMap((title) => {
    const facts = visit.facts.flatMap((p, i) => (p.fact.section === title ? [i] : []));
    if (facts.length === 0) return [];
    const joiner = title === 'MEDICATIONS' && rng.chance(0.5) ? '\n' : ' ';
    if (rng.chance(uncited)) return [{ title, facts, joiner }];
    const sources = facts.flatMap((f) => visit.facts[f]!.ids);
    return [{ title, facts, joiner, sources }];
  });
}

/** The sentence the sandbox writes for a line (sandbox/processing/note-generator.ts, asNoteSentence). */
export function noteSentence(entry: TranscriptEntry): string {
  const u = utterancesOf([entry])[0]!;
  const sentence = asSentence(u.text);
  return isQuestion(u) ? sentence.replace(/[.!]$/, '?') : sentence;
}

export interface SandboxSection {
  title: string;
  content: string;
  sources?: string[];
}

/** What the sandbox's note writer makes of the transcript: the default sections and three more. */
export function sandboxNote(transcript: readonly TranscriptEntry[]): SandboxSection[] {
  const sections = [
    'CHIEF_COMPLAINT',
    'HISTORY_OF_PRESENT_ILLNESS',
    'PHYSICAL_EXAM',
    'ASSESSMENT_AND_PLAN',
    'MEDICATIONS',
    'REVIEW_OF_SYSTEMS',
    'PLAN',
  ];
  return generateNote([...transcript], sections).map((s) => ({
    title: s.title,
    content: s.content,
    ...(s.source_transcripts ? { sources: s.source_transcripts } : {}),
  }));
}
