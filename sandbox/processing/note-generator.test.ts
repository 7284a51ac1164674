import { describe, expect, it } from 'vitest';
import { transcriptOf as transcript } from './test-transcript';
import { DEFAULT_SECTIONS, SECTION_NAMES, sectionInfo } from '../../src/shared/service';
import { generateNote, NOT_STANDARD, NOTHING_RELEVANT } from './note-generator';
import { UNRECOGNIZED } from './recognize';

// Lowercase without punctuation, as the recognizer would give it.
const VISIT = transcript([
  'good morning what brings you in today',
  "i've been having chest pain for about three days",
  'it gets worse when i climb the stairs and it feels like pressure',
  'do you smoke',
  'no never',
  'are you allergic to any medications',
  "i'm allergic to penicillin it gives me hives",
  'i take aspirin eighty one milligrams every day',
  'your blood pressure is one thirty over eighty five',
  'your lungs are clear and your heart has a regular rhythm',
  'i think this is most likely angina',
  "we will get an ekg and i'd like you to see a cardiologist",
  'any fever or chills',
  'no fever and no chills',
]);

const section = (note: ReturnType<typeof generateNote>, name: string) => note.find((s) => s.title === name);

describe('generateNote', () => {
  it('writes the default five sections, with their LOINC codes, when none are asked for', () => {
    for (const asked of [undefined, []]) {
      const note = generateNote(VISIT, asked);
      expect(note.map((s) => s.title)).toEqual(DEFAULT_SECTIONS);
      expect(note.map((s) => s.loinc_code)).toEqual(['10154-3', '10164-2', '29545-1', '51847-2', '10160-0']);
    }
  });

  it('cites only transcript ids that exist, for every standard section', () => {
    const ids = new Set(VISIT.map((e) => e.transcript_id));
    const note = generateNote(VISIT, SECTION_NAMES);
    expect(note.map((s) => s.loinc_code)).toEqual(SECTION_NAMES.map((n) => sectionInfo(n)?.loinc));
    for (const s of note) {
      expect(s.source_transcripts?.length ?? 0, s.title).toBeGreaterThan(0);
      for (const id of s.source_transcripts ?? []) expect(ids.has(id)).toBe(true);
    }
  });

  it('puts what was said under the section it belongs to, as sentences', () => {
    const note = generateNote(VISIT, SECTION_NAMES);
    expect(section(note, 'CHIEF_COMPLAINT')).toMatchObject({
      content: "I've been having chest pain for about three days.",
      source_transcripts: ['t2'],
    });
    expect(section(note, 'ALLERGIES')?.content).toBe("I'm allergic to penicillin it gives me hives.");
    expect(section(note, 'MEDICATIONS')?.source_transcripts).toEqual(['t8']);
    // A yes/no answer keeps its question, or it would mean nothing.
    expect(section(note, 'SOCIAL_HISTORY')).toMatchObject({
      content: 'Do you smoke? No never.',
      source_transcripts: ['t4', 't5'],
    });
    expect(section(note, 'PHYSICAL_EXAM')?.source_transcripts).toEqual(['t9', 't10']);
    expect(section(note, 'ASSESSMENT')?.source_transcripts).toEqual(['t11']);
    expect(section(note, 'PLAN')?.source_transcripts).toEqual(['t12']);
    expect(section(note, 'ASSESSMENT_AND_PLAN')?.source_transcripts).toEqual(['t11', 't12']);
    expect(section(note, 'REVIEW_OF_SYSTEMS')?.content).toContain('No fever and no chills.');
    expect(section(note, 'HISTORY_OF_PRESENT_ILLNESS')?.source_transcripts).toEqual(
      expect.arrayContaining(['t2', 't3']),
    );
  });

  it('says so, with no sources, when nothing in the conversation fits a section', () => {
    const note = generateNote(transcript([UNRECOGNIZED, UNRECOGNIZED]), ['CHIEF_COMPLAINT', 'PLAN']);
    expect(note).toEqual([
      { title: 'CHIEF_COMPLAINT', content: NOTHING_RELEVANT, loinc_code: '10154-3' },
      { title: 'PLAN', content: NOTHING_RELEVANT, loinc_code: '18776-5' },
    ]);
    expect(generateNote([], undefined)).toHaveLength(5);
  });

  it('answers an unknown section name as not standard, and a repeated one once', () => {
    const note = generateNote(VISIT, ['PLAN', 'DIAGNOSIS_GUESS', 'PLAN']);
    expect(note.map((s) => s.title)).toEqual(['PLAN', 'DIAGNOSIS_GUESS']);
    expect(note[1]).toEqual({ title: 'DIAGNOSIS_GUESS', content: NOT_STANDARD });
  });

  it('is deterministic', () => {
    expect(generateNote(VISIT, SECTION_NAMES)).toEqual(generateNote(structuredClone(VISIT), SECTION_NAMES));
  });
});
