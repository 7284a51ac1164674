import type { z } from 'zod';
import type { visitLinkProblemSchema, visitLinkSchema } from './contract/visit-links';
import { NOTE_TEMPLATE_IDS } from './note-templates';
import { MAX_ENCOUNTER_ID_LENGTH, readEncounterId } from './encounter-id';
import { DATE_OF_BIRTH_RULE, SEXES, SPECIALTIES, isPastIsoDate } from './service';

/**
 * A visit link from the EHR (issue 18): `ambient-scribe://visit?encounter_id=…&date_of_birth=
 * YYYY-MM-DD&sex=…&specialty=…&template=…&provider_id=…`. Every field is checked with the same
 * rule as a typed one; a link with any problem fills nothing, and its problems are named.
 */
export const VISIT_LINK_SCHEME = 'ambient-scribe';

/** A link's details and a problem with one, as the contract carries them (contract/visit-links.ts). */
export type VisitLink = z.infer<typeof visitLinkSchema>;
export type VisitLinkProblem = z.infer<typeof visitLinkProblemSchema>;

export type VisitLinkReading = { ok: true; link: VisitLink } | { ok: false; problems: VisitLinkProblem[] };

/** Longer than any link an EHR builds for these fields; a longer one is refused unread. */
export const MAX_VISIT_LINK_LENGTH = 2_048;

const FIELDS = ['encounter_id', 'date_of_birth', 'sex', 'specialty', 'template', 'provider_id'] as const;
type Field = (typeof FIELDS)[number];

/** Reads a visit link; `today` is the local date as YYYY-MM-DD (a date of birth must be before it). */
export function readVisitLink(text: string, today: string): VisitLinkReading {
  const refuse = (field: string, rule: string): VisitLinkReading => ({
    ok: false,
    problems: [{ field, rule }],
  });
  if (text.length > MAX_VISIT_LINK_LENGTH)
    return refuse('link', `must be at most ${MAX_VISIT_LINK_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('link', `must be a link such as ${VISIT_LINK_SCHEME}://visit?encounter_id=…`);
  }
  if (
    url.protocol !== `${VISIT_LINK_SCHEME}:` ||
    url.hostname !== 'visit' ||
    (url.pathname !== '' && url.pathname !== '/')
  )
    return refuse('link', `must start ${VISIT_LINK_SCHEME}://visit?`);

  const problems: VisitLinkProblem[] = [];
  const values = new Map<Field, string>();
  for (const [name, value] of url.searchParams) {
    if (!(FIELDS as readonly string[]).includes(name)) {
      problems.push({ field: name, rule: `is not a field of a visit link (${FIELDS.join(', ')})` });
    } else if (values.has(name as Field)) {
      problems.push({ field: name, rule: 'must be given once' });
    } else {
      values.set(name as Field, value);
    }
  }
  // As the EHR prints it, like a typed one (issue 31): "ENC-2024-00871" is the visit ENC202400871,
  // its letters and digits, which is what the service takes and what the link fills in.
  const printedEncounterId = values.get('encounter_id');
  let encounterId: string | undefined;
  if (printedEncounterId === undefined) problems.push({ field: 'encounter_id', rule: 'is needed' });
  else {
    const reading = readEncounterId(printedEncounterId);
    if (reading.kind === 'id') encounterId = reading.sent;
    else
      problems.push({
        field: 'encounter_id',
        rule: /[A-Za-z0-9]/.test(printedEncounterId.normalize('NFKC'))
          ? `must be at most ${MAX_ENCOUNTER_ID_LENGTH} letters and digits`
          : 'must have at least one letter or digit (A–Z, a–z, 0–9)',
      });
  }
  const dateOfBirth = values.get('date_of_birth');
  if (dateOfBirth !== undefined && !isPastIsoDate(dateOfBirth, today))
    problems.push({ field: 'date_of_birth', rule: DATE_OF_BIRTH_RULE });
  const oneOf = <T extends string>(field: Field, allowed: readonly T[]): T | undefined => {
    const value = values.get(field);
    if (value === undefined) return undefined;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    problems.push({ field, rule: `must be one of ${allowed.join(', ')}` });
    return undefined;
  };
  const sex = oneOf('sex', SEXES);
  const specialty = oneOf('specialty', SPECIALTIES);
  const template = oneOf('template', NOTE_TEMPLATE_IDS);
  const providerId = values.get('provider_id');
  if (providerId !== undefined && (providerId.trim() === '' || providerId.length > 200))
    problems.push({ field: 'provider_id', rule: 'must be 1 to 200 characters' });
  if (problems.length > 0 || encounterId === undefined) return { ok: false, problems };
  return {
    ok: true,
    link: {
      encounterId,
      ...(dateOfBirth !== undefined ? { dateOfBirth } : {}),
      ...(sex ? { sex } : {}),
      ...(specialty ? { specialty } : {}),
      ...(template ? { template } : {}),
      ...(providerId !== undefined ? { providerId: providerId.trim() } : {}),
    },
  };
}
