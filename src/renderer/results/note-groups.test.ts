import { describe, expect, it } from 'vitest';
import { NOTHING_FOUND_CONTENT, type SummarySection } from '../../shared/service';
import { itemTitle, noteGroups, noteGroupsText, standardSectionName, templateOfNote } from './note-groups';
import { sectionText } from './format';

const section = (title: string, content = `${title} text.`): SummarySection => ({ title, content });
/** A SOAP note as the service returns it: the template's sections in the order asked for. */
const soap = ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS', 'PHYSICAL_EXAM', 'ASSESSMENT', 'PLAN'].map(
  (title) => section(title),
);
const layout = (sections: SummarySection[]) =>
  noteGroups(sections).map((g) => ({ heading: g.heading, titles: g.items.map((i) => i.section.title) }));
const textOf = ({ section: s }: { section: SummarySection }) => sectionText(s);

describe('the note under the headings its template names', () => {
  it('knows a section by its code or its name', () => {
    expect(standardSectionName('PLAN')).toBe('PLAN');
    expect(standardSectionName('History of present illness')).toBe('HISTORY_OF_PRESENT_ILLNESS');
    expect(standardSectionName('Diagnosis guess')).toBeUndefined();
  });

  it('shows a SOAP note as Subjective, Objective, Assessment and Plan, each section once, where it was', () => {
    expect(layout(soap)).toEqual([
      { heading: 'Subjective', titles: ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS'] },
      { heading: 'Objective', titles: ['PHYSICAL_EXAM'] },
      { heading: 'Assessment', titles: ['ASSESSMENT'] },
      { heading: 'Plan', titles: ['PLAN'] },
    ]);
    // Each keeps its place in the service's summary: the key of the clinician's edit.
    expect(noteGroups(soap).flatMap((g) => g.items.map((i) => i.index))).toEqual([0, 1, 2, 3, 4]);
  });

  it('knows the template by its sections in any order, by code or by name', () => {
    const shuffled = [soap[4]!, soap[2]!, section('Chief complaint'), soap[1]!, soap[3]!];
    expect(templateOfNote(shuffled)).toBe('soap');
    const groups = noteGroups(shuffled);
    expect(groups.map((g) => g.heading)).toEqual(['Subjective', 'Objective', 'Assessment', 'Plan']);
    expect(groups[0]!.items.map((i) => i.index)).toEqual([2, 3]);
    expect(groups[3]!.items.map((i) => i.index)).toEqual([0]);
  });

  it('shows History and physical as History, Physical examination, Assessment and plan', () => {
    const hp = [
      'CHIEF_COMPLAINT',
      'HISTORY_OF_PRESENT_ILLNESS',
      'REVIEW_OF_SYSTEMS',
      'MEDICATIONS',
      'ALLERGIES',
      'SOCIAL_HISTORY',
      'PHYSICAL_EXAM',
      'ASSESSMENT_AND_PLAN',
    ].map((title) => section(title));
    expect(layout(hp).map((g) => [g.heading, g.titles.length])).toEqual([
      ['History', 6],
      ['Physical examination', 1],
      ['Assessment and plan', 1],
    ]);
  });

  it('lists the sections of any other note as they came, without headings', () => {
    // The Standard template, a clinician's own checklist, a SOAP note missing a section or with one twice.
    for (const sections of [
      [
        'CHIEF_COMPLAINT',
        'HISTORY_OF_PRESENT_ILLNESS',
        'PHYSICAL_EXAM',
        'ASSESSMENT_AND_PLAN',
        'MEDICATIONS',
      ],
      ['PLAN', 'ALLERGIES'],
      ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS', 'PHYSICAL_EXAM', 'ASSESSMENT'],
      ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS', 'PHYSICAL_EXAM', 'ASSESSMENT', 'ASSESSMENT'],
    ]) {
      expect(templateOfNote(sections.map((t) => section(t)))).not.toBe('soap');
      expect(layout(sections.map((t) => section(t)))).toEqual([{ heading: undefined, titles: sections }]);
    }
  });

  it('names a heading’s only section by the heading, and others by their own titles', () => {
    const [subjective, objective] = noteGroups(soap);
    expect(itemTitle(subjective!, subjective!.items[1]!)).toBe('History of present illness');
    expect(itemTitle(objective!, objective!.items[0]!)).toBe('Objective');
    const [plain] = noteGroups([section('PLAN')]);
    expect(itemTitle(plain!, plain!.items[0]!)).toBe('Plan');
  });
});

describe('the note as one text (Copy all)', () => {
  it('puts each heading in capitals over its sections, a blank line between sections', () => {
    expect(noteGroupsText(noteGroups(soap), textOf)).toBe(
      [
        'SUBJECTIVE\nChief complaint\nCHIEF_COMPLAINT text.',
        'History of present illness\nHISTORY_OF_PRESENT_ILLNESS text.',
        // A heading's only section is under the heading alone.
        'OBJECTIVE\nPHYSICAL_EXAM text.',
        'ASSESSMENT\nASSESSMENT text.',
        'PLAN\nPLAN text.',
      ].join('\n\n'),
    );
  });

  it('leaves out what the service found nothing for, and a heading left with nothing', () => {
    const sparse = soap.map((s) =>
      ['HISTORY_OF_PRESENT_ILLNESS', 'PHYSICAL_EXAM'].includes(s.title)
        ? s
        : section(s.title, NOTHING_FOUND_CONTENT),
    );
    const text = noteGroupsText(noteGroups(sparse), textOf, ['Consent: verbal.']);
    expect(text).toBe(
      [
        'SUBJECTIVE\nHistory of present illness\nHISTORY_OF_PRESENT_ILLNESS text.',
        'OBJECTIVE\nPHYSICAL_EXAM text.',
        'Consent: verbal.',
      ].join('\n\n'),
    );
    expect(text).not.toContain('Nothing relevant');
    expect(text).not.toMatch(/ASSESSMENT|PLAN|Chief complaint/);
  });

  it('titles each section of a note without headings, and leaves out the empty ones', () => {
    const sections = [
      section('CHIEF_COMPLAINT'),
      section('ALLERGIES', NOTHING_FOUND_CONTENT),
      section('PLAN', ''),
    ];
    expect(noteGroupsText(noteGroups(sections), textOf)).toBe('Chief complaint\nCHIEF_COMPLAINT text.');
    // Nothing found anywhere: the closing lines alone, or nothing.
    expect(noteGroupsText(noteGroups(sections.slice(1)), textOf, ['Consent: verbal.'])).toBe(
      'Consent: verbal.',
    );
    expect(noteGroupsText(noteGroups(sections.slice(1)), textOf)).toBe('');
  });
});
