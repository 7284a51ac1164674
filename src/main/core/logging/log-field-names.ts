/**
 * What a log field's name says about its value. Two lists, because they fail differently:
 *
 * - SECRET and PATIENT names (a denylist) redact the whole value, whatever its type: a number
 *   under `value` can be a heart rate, an object under `credentials` holds a token.
 * - TEXT names (an allowlist) are the only fields whose strings are written at all. Every other
 *   string is redacted. Strings are where tokens and clinical text live, and this codebase logs
 *   text under a small, known set of operational names (verb, state, reason, error, sessionId…).
 *   A denylist alone would let the next `patientNote` or `details` field through; with the
 *   allowlist a new text field shows as [redacted] until someone decides it is safe and adds it
 *   here, so a mistake costs a less useful line, never a leak.
 *
 * Numbers, booleans and null under any other name are kept: counts, sizes, durations, sequence
 * numbers and close codes are what the log is for. Names are compared lowercased with everything
 * but letters and digits removed, so dateOfBirth, date_of_birth and date-of-birth are one name.
 */
export type FieldClass = 'redact' | 'text' | 'other';

/** Parts of names that mean a credential (access_token, sdp_service_token, code_verifier…). */
const SECRET_PARTS = [
  'token',
  'secret',
  'passw',
  'authoriz',
  'cookie',
  'verifier',
  'refresh',
  'credential',
  'signature',
  'bearer',
  'jwt',
  'apikey',
  'privatekey',
];

/**
 * Parts of names that mean patient data or clinical text, from this codebase's shapes
 * (src/shared/service: patient_info.date_of_birth and sex, transcript, summary[].content,
 * forms' fields[].value and evidence, feedback comment and field_corrections, the session context)
 * and the usual names for identity (name, email, phone, address, MRN).
 */
const PATIENT_PARTS = [
  'birth',
  'patient',
  'gender',
  'transcript',
  'summary',
  'content',
  'text',
  'sentence',
  'evidence',
  'comment',
  'correction',
  'context',
  'email',
  'phone',
  'address',
  'diagnos',
  'medication',
  'allerg',
];
/** Whole names only: as parts they would catch `notice`, `session`, `seconds`. */
const PATIENT_NAMES = new Set([
  'dob',
  'sex',
  'age',
  'ssn',
  'mrn',
  'note',
  'notes',
  'value',
  'values',
  'audio',
  'pcm',
]);
/** Suffixes: providerName, firstName…; spoolKey, apiKey. */
const REDACTED_SUFFIXES = ['name', 'key'];

/**
 * The operational fields whose text is written (after the text rules). See the comment above.
 * `state` is the recorder's or the stream link's here; OpenID Connect's state parameter only
 * travels in URLs, where the text rules remove it. `code` is not on the list: a close code is a
 * number and kept as one, an authorization code is text and is not.
 */
const TEXT_NAMES = new Set([
  'verb',
  'operation',
  'path',
  'url',
  'status',
  'id',
  'error',
  'reason',
  'state',
  'from',
  'to',
  'pause',
  'link',
  'model',
  'phase',
  'kind',
  'mode',
  'version',
  'platform',
  'sessionid',
  'session',
  'formsessionid',
  'delivery',
  'setting',
  'entry',
  'keptas',
  'refusal',
  'rejectedfields',
  // Which fields a visit link carried (names from visit-link.ts's list), never their values.
  'linkfields',
  'engine',
]);

// Names come from code, so there are few; the cap only guards against keys taken from data.
const cache = new Map<string, FieldClass>();
const CACHE_LIMIT = 2_000;

export function classifyField(name: string): FieldClass {
  let found = cache.get(name);
  if (found === undefined) {
    found = classifyUncached(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
    if (cache.size < CACHE_LIMIT) cache.set(name, found);
  }
  return found;
}

function classifyUncached(name: string): FieldClass {
  if (
    PATIENT_NAMES.has(name) ||
    SECRET_PARTS.some((part) => name.includes(part)) ||
    PATIENT_PARTS.some((part) => name.includes(part)) ||
    REDACTED_SUFFIXES.some((suffix) => name.endsWith(suffix))
  ) {
    return 'redact';
  }
  return TEXT_NAMES.has(name) ? 'text' : 'other';
}
