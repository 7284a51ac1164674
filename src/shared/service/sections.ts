// protocol: Ambient session (standard section names, LOINC codes, default set = the first five)
export const STANDARD_SECTIONS = [
  { name: 'CHIEF_COMPLAINT', loinc: '10154-3', title: 'Chief complaint' },
  { name: 'HISTORY_OF_PRESENT_ILLNESS', loinc: '10164-2', title: 'History of present illness' },
  { name: 'PHYSICAL_EXAM', loinc: '29545-1', title: 'Physical exam' },
  { name: 'ASSESSMENT_AND_PLAN', loinc: '51847-2', title: 'Assessment and plan' },
  { name: 'MEDICATIONS', loinc: '10160-0', title: 'Medications' },
  { name: 'ALLERGIES', loinc: '48765-2', title: 'Allergies' },
  { name: 'SOCIAL_HISTORY', loinc: '29762-2', title: 'Social history' },
  { name: 'REVIEW_OF_SYSTEMS', loinc: '10187-3', title: 'Review of systems' },
  { name: 'ASSESSMENT', loinc: '51848-0', title: 'Assessment' },
  { name: 'PLAN', loinc: '18776-5', title: 'Plan' },
] as const;

export type SectionName = (typeof STANDARD_SECTIONS)[number]['name'];
export const SECTION_NAMES = STANDARD_SECTIONS.map((s) => s.name) as SectionName[];
export const DEFAULT_SECTIONS: SectionName[] = SECTION_NAMES.slice(0, 5);

export function sectionInfo(name: string): (typeof STANDARD_SECTIONS)[number] | undefined {
  return STANDARD_SECTIONS.find((s) => s.name === name);
}

// protocol: Ambient session (specialties; FAMILY_MEDICINE is the default)
export const SPECIALTIES = [
  'FAMILY_MEDICINE',
  'INTERNAL_MEDICINE',
  'PEDIATRICS',
  'CARDIOLOGY',
  'ORTHOPEDICS',
  'DERMATOLOGY',
  'PSYCHIATRY',
  'EMERGENCY_MEDICINE',
  'NEUROLOGY',
  'OBSTETRICS_GYNECOLOGY',
] as const;
export type Specialty = (typeof SPECIALTIES)[number];
export const DEFAULT_SPECIALTY: Specialty = 'FAMILY_MEDICINE';
