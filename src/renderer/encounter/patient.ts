import type { Sex } from '../../shared/service';
import { ageInYears, dateInWords } from './date-of-birth';

const SEX_WORDS: Record<Sex, string | undefined> = {
  MALE: 'Male',
  FEMALE: 'Female',
  OTHER: 'Other sex',
  UNKNOWN: undefined,
};

/** The patient of a visit, as the screen names it: what was given, in the visit's own details. */
export interface Patient {
  /** YYYY-MM-DD, or undefined when not given. */
  dateOfBirth?: string;
  sex?: Sex;
}

/**
 * "Female · 65 years · born 9 April 1961": which patient a recording or a note belongs to, in
 * words. Undefined when no detail was given.
 */
export function describePatient(patient: Patient, today: string, locale?: string): string | undefined {
  const parts = [
    patient.sex ? SEX_WORDS[patient.sex] : undefined,
    patient.dateOfBirth ? `${ageInYears(patient.dateOfBirth, today)} years` : undefined,
    patient.dateOfBirth ? `born ${dateInWords(patient.dateOfBirth, locale)}` : undefined,
  ].filter(Boolean);
  return parts.length ? parts.join(' · ') : undefined;
}
