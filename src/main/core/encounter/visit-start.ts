import type { StartEncounter } from '../../../shared/contract';
import type { VisitPatient } from '../../../shared/contract/notes';
import type { Settings } from '../../../shared/settings';
import { ServiceCallError } from '../service/service-error';
import { UserFacingError } from '../user-facing-error';

/*
 * What the encounter.start verb checks and reads in a Start request beyond its schema, and the
 * sentence a Start that failed at the service is told with (contract-verbs.ts).
 */

/**
 * The organisation requires the patient's consent before recording (issue 29): a Start without it
 * is refused by name, whatever the window did.
 */
export function refuseWithoutConsent(request: StartEncounter, mode: Settings['consent']): void {
  if (mode !== 'required' || request.consent) return;
  throw new UserFacingError(
    'invalid_request',
    'Patient consent is required before recording: check that the patient agreed, then press Start recording.',
    [{ field: 'consent', message: 'Patient consent is required before recording.' }],
  );
}

/** The patient details an ambient visit is recorded with, as the note's header names them. */
export function patientOf(request: StartEncounter): VisitPatient | undefined {
  const info = request.kind === 'ambient' ? request.context?.patient_info : undefined;
  if (info?.date_of_birth === undefined && info?.sex === undefined) return undefined;
  return {
    ...(info.date_of_birth !== undefined ? { dateOfBirth: info.date_of_birth } : {}),
    ...(info.sex !== undefined ? { sex: info.sex } : {}),
  };
}

/**
 * A visit that could not start: nothing was recorded yet, so the next step is to press Start
 * again (service-error.ts's general sentences speak of a recording that continues).
 */
export function asStartProblem(error: ServiceCallError): ServiceCallError {
  const sentence =
    error.status === 0
      ? 'The documentation service cannot be reached, so the visit did not start. Check the network connection, then press Start recording again.'
      : error.status >= 500
        ? 'The documentation service had a problem starting the visit. Press Start recording again in a moment; if it keeps happening, tell your IT admin.'
        : undefined;
  return sentence ? new ServiceCallError(error.status, error.id, sentence, error.serviceMessage) : error;
}
