/**
 * An encounter ID as the EHR prints it (issue 31): "ENC-2024-00871", "bed 12 / A", pasted with a
 * trailing space. The service takes letters and digits only (protocol: Ambient session), so what
 * is sent is the letters and digits of what was typed, in order, and the screen says so before
 * Start whenever that is not exactly what was typed.
 */
export type EncounterIdReading =
  | {
      kind: 'id';
      /** What the service receives: 1–255 letters and digits. */
      sent: string;
      /** Something other than surrounding spaces was left out: the screen shows what is sent. */
      changed: boolean;
    }
  | { kind: 'problem'; problem: string };

/** The service's limit (protocol: Ambient session). */
export const MAX_ENCOUNTER_ID_LENGTH = 255;

/** Said whenever the sent ID differs from the typed one (the field's hint). */
export const sentAsHint = (sent: string) => `Sent as ${sent}: the service takes letters and digits only`;

export function readEncounterId(typed: string): EncounterIdReading {
  // Full-width forms, as some Asian-language EHRs print them, are the same letters and digits
  // (ＥＮＣ１２ is ENC12); anything else that is not A–Z, a–z or 0–9 is punctuation to the service.
  const sent = typed.normalize('NFKC').replace(/[^A-Za-z0-9]/g, '');
  if (sent.length === 0)
    return {
      kind: 'problem',
      problem:
        typed.trim() === ''
          ? 'Encounter ID is needed: type or paste it as in your EHR.'
          : 'Encounter ID must have at least one letter or digit (A–Z, a–z, 0–9): the service takes only those.',
    };
  if (sent.length > MAX_ENCOUNTER_ID_LENGTH)
    return {
      kind: 'problem',
      problem: `Encounter ID must be at most ${MAX_ENCOUNTER_ID_LENGTH} letters and digits; this one has ${sent.length}.`,
    };
  return { kind: 'id', sent, changed: sent !== typed.trim() };
}
