import type { HistoryEntry, StartEncounter } from '../../../shared/contract';
import type { ConsentRecord } from '../../../shared/consent';
import type { DeliveryTarget } from '../../../shared/delivery-target';

/** What Start made of a visit, as History keeps it from its first moment. */
export interface StartedVisit {
  sessionId: string;
  formSessionId?: string | undefined;
  audioKept: boolean;
  deliverTo: DeliveryTarget;
  /** The patient's consent as the clinician attested it at Start, by the provider recording it. */
  consent?: ConsentRecord;
  /** Both, sealed (visit-seal.ts): what History believes of them after a restart. */
  sealed?: string;
}

/**
 * A visit's History entry at Start: identifiers and times, how the encounter ID reads in the EHR,
 * whether it was a video visit, and the patient's consent as the clinician attested it, by the
 * provider recording it. Nothing clinical.
 */
export function startedVisitRecord(request: StartEncounter, visit: StartedVisit, now: number): HistoryEntry {
  return {
    encounterId: request.encounterId,
    ...(request.shownAs !== undefined && request.shownAs !== request.encounterId
      ? { shownAs: request.shownAs }
      : {}),
    ...(request.kind === 'ambient' && request.video ? { video: true as const } : {}),
    sessionId: visit.sessionId,
    ...(visit.formSessionId ? { formSessionId: visit.formSessionId } : {}),
    kind: request.kind,
    state: 'recording',
    startedAt: now,
    audioKept: visit.audioKept,
    deliverTo: visit.deliverTo,
    ...(visit.consent ? { consent: visit.consent } : {}),
    ...(visit.sealed ? { sealed: visit.sealed } : {}),
  };
}

/** The patient's consent as the clinician attested it at Start, dated, by the provider recording it. */
export function attestedConsent(
  request: StartEncounter,
  deliverTo: DeliveryTarget,
  at: number,
): ConsentRecord | undefined {
  return request.consent ? { ...request.consent, at, providerId: deliverTo.providerId } : undefined;
}
