import { randomUUID } from 'node:crypto';
import type { StartEncounter } from '../../../shared/contract';
import type { ConsentRecord } from '../../../shared/consent';
import type { DeliveryTarget } from '../../../shared/delivery-target';
import { createVisitSeal } from '../sealed/visit-seal';
import type { RecorderTiming } from '../recorder/recorder-types';
import type { EncounterControllerDeps } from './encounter-controller';
import { deliveryTargetOf, type ServiceSession } from './service-session';
import { openLeg, type Leg } from './visit-leg';
import { attestedConsent } from './visit-record';
import type { VisitLegs } from './visit-recorders';

/**
 * A visit. Its main leg is the session the clinician asked for; an ambient visit with forms has a
 * second, form-filling leg that gets the same chunks, pauses and End (the service keeps ambient and
 * form-filling sessions apart, docs/protocol.md).
 */
export interface ActiveEncounter extends VisitLegs {
  encounterId: string;
  session: ServiceSession;
  /** The service and account it is recorded for (History shows it; its audio goes nowhere else). */
  deliverTo: DeliveryTarget;
  /** The patient's consent as attested at Start. */
  consent?: ConsentRecord;
  /** Its owner and consent, sealed (visit-seal.ts), as History and its spools keep them. */
  sealed?: string;
  /** The recording failed before End: its legs are let go, its audio waits in the spool for Try again. */
  failed?: boolean;
}

/**
 * Start at the service: signed in, the ambient (or form) session created with our own UUID, its
 * context posted before the stream opens (protocol: Ambient session), and a form-filling leg beside
 * it when the visit has forms. Each leg's audio is spooled from its first chunk where a spool is given.
 */
export async function openEncounter(
  deps: Pick<EncounterControllerDeps, 'clock' | 'log' | 'recorderTiming' | 'spool'>,
  request: StartEncounter,
  session: ServiceSession,
  timing: Partial<RecorderTiming>,
  onDiskFailure: (sessionId: string) => void,
): Promise<ActiveEncounter> {
  await session.auth.current();
  // Signed in: a standard partner's provider is known now. The visit's audio goes nowhere else.
  const deliverTo = deliveryTargetOf(session);
  const consent = attestedConsent(request, deliverTo, deps.clock.now());
  const spoolKey = deps.spool ? await deps.spool.key() : undefined;
  let sealed: string | undefined;
  const legFor = (kind: Leg['kind'], id: string, visitSessionId?: string) =>
    openLeg({
      kind,
      sessionId: id,
      session,
      clock: deps.clock,
      log: deps.log,
      timing: { ...timing, ...deps.recorderTiming },
      ...(deps.spool && spoolKey
        ? {
            spool: {
              root: deps.spool.root,
              key: spoolKey,
              encounterId: request.encounterId,
              visitSessionId,
              deliverTo,
              sealed,
            },
          }
        : {}),
      onDiskFailure: () => onDiskFailure(id),
    });
  const sessionId =
    request.kind === 'ambient'
      ? await session.rest.createAmbientSession(request.encounterId, randomUUID())
      : await session.rest.createFormSession(request.encounterId);
  // Sealed once, bound to the visit's session: History and each spool vouch for nothing else.
  if (spoolKey)
    sealed = createVisitSeal(spoolKey).seal(sessionId, { deliverTo, ...(consent ? { consent } : {}) });
  // protocol: Ambient session (post context before opening the stream)
  if (request.kind === 'ambient' && request.context)
    await session.rest.postAmbientContext(sessionId, request.context);
  if (request.kind === 'form') await session.rest.postFormContext(sessionId, request.formItems);
  let formLeg: Leg | undefined;
  if (request.kind === 'ambient' && request.formItems?.length) {
    const formSessionId = await session.rest.createFormSession(request.encounterId);
    await session.rest.postFormContext(formSessionId, request.formItems);
    formLeg = legFor('form', formSessionId, sessionId);
  }
  return {
    ...legFor(request.kind, sessionId),
    encounterId: request.encounterId,
    session,
    deliverTo,
    ...(consent ? { consent } : {}),
    ...(sealed ? { sealed } : {}),
    ...(formLeg ? { formLeg } : {}),
  };
}
