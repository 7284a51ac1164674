/**
 * The sandbox's note: an emulator's extractive summarizer, not a clinical model. It writes nothing
 * new; each section is the utterances that its keyword rules (note-rules.ts) pick, in the order they
 * were said, with their transcript_ids as sources. The same transcript always gives the same note.
 */
import {
  DEFAULT_SECTIONS,
  NOTHING_FOUND_CONTENT,
  sectionInfo,
  type SummarySection,
  type TranscriptEntry,
} from '../../src/shared/service';
import { SECTION_RULES, type SectionRule } from './note-rules';
import { asSentence, isQuestion, plainWords, utterancesOf, type Utterance } from './text-match';
import type { GenerateNote } from './types';

/** What a section says when nothing fits it: the sentence the client knows (src/shared/service). */
export const NOTHING_RELEVANT = NOTHING_FOUND_CONTENT;
export const NOT_STANDARD =
  'Not a standard section: the sandbox fills only the standard sections listed in docs/protocol.md.';

/** An answer this short ("No.", "Yes, every day.") means little without the question before it. */
const SHORT_ANSWER_WORDS = 4;

const asNoteSentence = (u: Utterance) => {
  const sentence = asSentence(u.text);
  return isQuestion(u) ? sentence.replace(/[.!]$/, '?') : sentence;
};

/**
 * The utterances for one section. A statement counts when the rule matches it. A question never
 * counts alone: when it matches, the answer after it counts instead (and the question too when the
 * answer is too short to stand on its own, as in "Do you smoke? No.").
 */
function pick(utterances: Utterance[], rule: SectionRule): Utterance[] {
  const matches = (u: Utterance) => {
    const text = plainWords(u.words).join(' ');
    return rule.include.test(text) && !(rule.exclude?.test(text) ?? false);
  };
  const chosen = new Set<number>();
  utterances.forEach((u, i) => {
    if (!isQuestion(u)) {
      if (matches(u)) chosen.add(i);
      return;
    }
    const answer = utterances[i + 1];
    if (!matches(u) || !answer || isQuestion(answer)) return;
    if (plainWords(answer.words).length <= SHORT_ANSWER_WORDS) chosen.add(i);
    chosen.add(i + 1);
  });
  const picked = [...chosen].sort((a, b) => a - b).map((i) => utterances[i] as Utterance);
  return rule.max === undefined ? picked : picked.slice(0, rule.max);
}

function section(name: string, utterances: Utterance[]): SummarySection {
  const info = sectionInfo(name);
  // Unknown names are answered, not dropped, so the client sees every section it asked for.
  if (!info) return { title: name, content: NOT_STANDARD };
  const picked = pick(utterances, SECTION_RULES[info.name]);
  // protocol: Ambient session (summary items: title, content, loinc_code, source_transcripts)
  if (picked.length === 0) return { title: name, content: NOTHING_RELEVANT, loinc_code: info.loinc };
  return {
    title: name,
    content: picked.map(asNoteSentence).join(' '),
    loinc_code: info.loinc,
    source_transcripts: picked.map((u) => u.id),
  };
}

export const generateNote: GenerateNote = (entries: TranscriptEntry[], sections: string[] | undefined) => {
  // protocol: Ambient session (default set when `sections` is omitted: the first five)
  const requested: readonly string[] = sections && sections.length > 0 ? sections : DEFAULT_SECTIONS;
  const utterances = utterancesOf(entries);
  // A section asked for twice is written once, where it was first asked for.
  return [...new Set(requested)].map((name) => section(name, utterances));
};
