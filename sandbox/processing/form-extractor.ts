/**
 * Form filling from a transcript: an emulator's rule-based extractor, not a clinical model.
 *
 * For each field, the utterances that mention it (its label, or the template's phrases for it) are
 * read from the last to the first, and the latest value wins: a vital sign rechecked later in the
 * visit replaces the first reading. A question that mentions the field ("Do you smoke?",
 * "What is your pain score?") takes its value from the answer that follows. Every filled field
 * lists the transcript_ids it came from; a field the conversation never settles stays null.
 */
import type { FilledField, FilledForm, FormField, FormTemplate } from '../../src/shared/service';
import { readAnswer, readValue, type FieldValue, type Mention } from './field-readers';
import { hintedFields, type FieldHint } from './form-templates';
import { findPhrase, isQuestion, utterancesOf, wordsOf, yesOrNo, type Utterance } from './text-match';
import type { ExtractForms } from './types';

/** Label words that name the kind of value rather than the thing ("Pain score" is about pain). */
const GENERIC = new Set('score level rate number value status current total count amount'.split(' '));
const STOPWORDS = new Set('of the a an in on for to and or with any is are'.split(' '));

/** The ways a field is named: its label, its id ("pain_score"), its label's core words, the hints. */
function phrasesFor(field: FormField, hint: FieldHint): string[][] {
  const label = wordsOf(field.label);
  const core = label.filter((w) => !GENERIC.has(w) && !STOPWORDS.has(w));
  const all = [label, wordsOf(field.id.replace(/[_-]+/g, ' ')), core, ...(hint.phrases ?? []).map(wordsOf)];
  const unique = new Map(all.filter((p) => p.length > 0).map((p) => [p.join(' '), p]));
  return [...unique.values()].sort((a, b) => b.length - a.length);
}

/** Every place the field is named in the sentence, the longest phrase at each place, last first. */
function mentionsIn(words: string[], phrases: string[][], exclude: string[][]): Mention[] {
  const byStart = new Map<number, Mention>();
  for (const phrase of phrases) {
    for (const start of findPhrase(words, phrase)) {
      if (exclude.some((x) => findPhrase(words.slice(start, start + x.length), x).length > 0)) continue;
      if (!byStart.has(start)) byStart.set(start, { words, start, end: start + phrase.length });
    }
  }
  return [...byStart.values()].sort((a, b) => b.start - a.start);
}

interface Found {
  value: FieldValue;
  evidence: string[];
}

function findValue(field: FormField, hint: FieldHint, utterances: Utterance[]): Found | undefined {
  const phrases = phrasesFor(field, hint);
  const exclude = (hint.exclude ?? []).map(wordsOf);
  for (let k = utterances.length - 1; k >= 0; k -= 1) {
    const u = utterances[k] as Utterance;
    const mentions = mentionsIn(u.words, phrases, exclude);
    const optionsAlone = field.type === 'enum' && hint.anywhere === true;
    if (mentions.length === 0 && !optionsAlone) continue;

    if (isQuestion(u) && mentions.length > 0) {
      const answer = utterances[k + 1];
      if (!answer) continue;
      const value = field.type === 'boolean' ? yesOrNo(answer) : readAnswer(field, hint, answer.words);
      if (value !== undefined) return { value, evidence: [u.id, answer.id] };
      continue;
    }
    const candidates = mentions.length > 0 ? mentions : [{ words: u.words, start: -1, end: 0 }];
    for (const mention of candidates) {
      const value = readValue(field, hint, mention);
      if (value !== undefined) return { value, evidence: [u.id] };
    }
  }
  return undefined;
}

/** Option words too common to mean the field by themselves ("No", "Normal", "Mild"). */
const VAGUE_OPTIONS = new Set(
  'yes no none normal abnormal other unknown mild moderate severe present absent high low good poor'.split(
    ' ',
  ),
);

/**
 * An enum whose options are all distinctive ("Walker", "Room air") may be filled from an option said
 * without the field's label, when no utterance names the field.
 */
const optionsStandAlone = (field: FormField) =>
  field.type === 'enum' &&
  (field.options ?? []).every((o) => o.length >= 4 && !VAGUE_OPTIONS.has(o.toLowerCase()));

function fillField(field: FormField, hint: FieldHint, utterances: Utterance[]): FilledField {
  const found =
    findValue(field, hint, utterances) ??
    (optionsStandAlone(field) && !hint.anywhere
      ? findValue(field, { ...hint, anywhere: true }, utterances)
      : undefined);
  // protocol: Form filling (fields: id, label, value, unit?, evidence? = the transcript_ids used)
  return {
    id: field.id,
    label: field.label,
    value: found?.value ?? null,
    ...(field.unit !== undefined ? { unit: field.unit } : {}),
    ...(found ? { evidence: found.evidence } : {}),
  };
}

/**
 * Template items use the sandbox's hints for their fields; custom schema items (and templates the
 * sandbox has no hints for) are matched by label, and by option for distinctive enum options. A template id missing from `templates`
 * yields a form with no fields rather than failing the whole session.
 */
export const extractForms: ExtractForms = (entries, items, templates) => {
  const utterances = utterancesOf(entries);
  return items.map((item): FilledForm => {
    if (item.form_template_id !== undefined) {
      const id = item.form_template_id;
      const template: FormTemplate | undefined = templates.find((t) => t.form_template_id === id);
      const hints = hintedFields(id);
      const fields = (template?.fields ?? []).map((field) =>
        fillField(field, hints?.find((h) => h.id === field.id)?.hint ?? {}, utterances),
      );
      // protocol: Form filling (form_id = the template id for template items, form_template_id set)
      return { form_id: id, form_template_id: id, fields };
    }
    const schema = item.schema;
    return {
      form_id: schema?.form_id ?? '',
      fields: (schema?.fields ?? []).map((field) => fillField(field, {}, utterances)),
    };
  });
};
