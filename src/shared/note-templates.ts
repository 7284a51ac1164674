import { DEFAULT_SECTIONS, type SectionName } from './service/sections';

/**
 * Named note templates (issue 17): the shapes of note clinicians ask for, each a list of the
 * service's standard sections in the order the note shows them. "Custom" is the clinician's own
 * checklist (the setting noteSections).
 */
export const NOTE_TEMPLATES = [
  {
    id: 'standard',
    name: 'Standard',
    sections: DEFAULT_SECTIONS,
  },
  {
    id: 'soap',
    name: 'SOAP',
    // Subjective (complaint and history), objective (exam), assessment, plan.
    sections: ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS', 'PHYSICAL_EXAM', 'ASSESSMENT', 'PLAN'],
  },
  {
    id: 'history-and-physical',
    name: 'History and physical',
    sections: [
      'CHIEF_COMPLAINT',
      'HISTORY_OF_PRESENT_ILLNESS',
      'REVIEW_OF_SYSTEMS',
      'MEDICATIONS',
      'ALLERGIES',
      'SOCIAL_HISTORY',
      'PHYSICAL_EXAM',
      'ASSESSMENT_AND_PLAN',
    ],
  },
  {
    id: 'problem-focused',
    name: 'Problem-focused',
    sections: ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS', 'PHYSICAL_EXAM', 'ASSESSMENT_AND_PLAN'],
  },
] as const satisfies readonly { id: string; name: string; sections: readonly SectionName[] }[];

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
