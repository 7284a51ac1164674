import { DEFAULT_SECTIONS, type SectionName } from './service/sections';

/**
 * A heading a clinician expects in a template's note ("Subjective") and the service's sections
 * shown under it, in order (issue 31). A heading with one section is that section, under the
 * heading's name ("Assessment").
 */
export interface NoteHeading {
  readonly title: string;
  readonly sections: readonly SectionName[];
}

/**
 * A template shown under headings: its sections are the headings' own, in their order, so the
 * two can never disagree.
 */
function underHeadings<Id extends string>(id: Id, name: string, headings: readonly NoteHeading[]) {
  return { id, name, sections: headings.flatMap((heading) => heading.sections), headings };
}

/**
 * Named note templates (issue 17): the shapes of note clinicians ask for, each a list of the
 * service's standard sections in the order the note shows them. "Custom" is the clinician's own
 * checklist (the setting noteSections). A template with `headings` shows and copies its note under
 * those headings, which hold each of its sections once (tested), and docs/protocol.md lists them.
 */
export const NOTE_TEMPLATES = [
  {
    id: 'standard',
    name: 'Standard',
    sections: DEFAULT_SECTIONS,
  },
  // What the patient says, what the clinician finds, what it is, what is done.
  underHeadings('soap', 'SOAP', [
    { title: 'Subjective', sections: ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS'] },
    { title: 'Objective', sections: ['PHYSICAL_EXAM'] },
    { title: 'Assessment', sections: ['ASSESSMENT'] },
    { title: 'Plan', sections: ['PLAN'] },
  ]),
  // The admission note's three parts: the history taken, the examination, the assessment and plan.
  underHeadings('history-and-physical', 'History and physical', [
    {
      title: 'History',
      sections: [
        'CHIEF_COMPLAINT',
        'HISTORY_OF_PRESENT_ILLNESS',
        'REVIEW_OF_SYSTEMS',
        'MEDICATIONS',
        'ALLERGIES',
        'SOCIAL_HISTORY',
      ],
    },
    { title: 'Physical examination', sections: ['PHYSICAL_EXAM'] },
    { title: 'Assessment and plan', sections: ['ASSESSMENT_AND_PLAN'] },
  ]),
  {
    id: 'problem-focused',
    name: 'Problem-focused',
    sections: ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS', 'PHYSICAL_EXAM', 'ASSESSMENT_AND_PLAN'],
  },
] as const satisfies readonly {
  id: string;
  name: string;
  sections: readonly SectionName[];
  headings?: readonly NoteHeading[];
}[];

export const NOTE_TEMPLATE_IDS = [...NOTE_TEMPLATES.map((t) => t.id), 'custom'] as const;
export type NoteTemplateId = (typeof NOTE_TEMPLATES)[number]['id'] | 'custom';

/** The sections a template asks the service for; Custom's are the clinician's own. */
export function templateSections(id: NoteTemplateId, custom: readonly SectionName[]): SectionName[] {
  const named = NOTE_TEMPLATES.find((t) => t.id === id);
  return named ? [...named.sections] : [...custom];
}

/** The template whose sections these are, or 'custom'. */
export function templateOf(sections: readonly string[]): NoteTemplateId {
  const match = NOTE_TEMPLATES.find(
    (t) => t.sections.length === sections.length && t.sections.every((s, i) => sections[i] === s),
  );
  return match?.id ?? 'custom';
}

export function templateName(id: NoteTemplateId): string {
  return NOTE_TEMPLATES.find((t) => t.id === id)?.name ?? 'Custom';
}

/** The headings a template's note is shown and copied under; none for a plain list of sections. */
export function templateHeadings(id: NoteTemplateId): readonly NoteHeading[] | undefined {
  const named = NOTE_TEMPLATES.find((t) => t.id === id);
  return named && 'headings' in named ? named.headings : undefined;
}
