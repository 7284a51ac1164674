import { z } from 'zod';
import { AUTH_MODELS } from './settings';

/**
 * Where a visit's audio and credentials belong (issue 28), and whose the visit is (issue 39): the
 * service they were meant for and the account (partner, provider and sign-in model) they were
 * recorded under. A spooled visit records its target when it starts and is only ever delivered
 * there, as that provider; a changed service address, partner, provider or sign-in model leaves it
 * waiting, never sends a patient's audio to another service or account, and never shows the visit
 * to whoever signs in there (the built-in demo with the same provider ID included).
 *
 * `service` is the service's origin (`https://scribe.example.org`), or `builtin-sandbox` for the
 * built-in demo, whose loopback port changes at every launch.
 */
export const BUILTIN_SERVICE = 'builtin-sandbox';

export const deliveryTargetSchema = z.object({
  service: z.string().min(1).max(300),
  partnerId: z.string().max(200),
  /** The provider the visit was recorded as (a standard partner's: who signed in at the IdP). */
  providerId: z.string().max(200),
  /**
   * The sign-in model it was recorded under. Absent in records of versions before issue 39: such a
   * record is nobody's (sameTarget), since who proved what then cannot be told.
   */
  model: z.enum(AUTH_MODELS).optional(),
});
export type DeliveryTarget = z.infer<typeof deliveryTargetSchema>;

/** The service part of a target: an address's origin, so a path or a trailing slash is the same service. */
export function serviceOf(service: { kind: 'builtin-sandbox' } | { kind: 'url'; baseUrl: string }): string {
  if (service.kind === 'builtin-sandbox') return BUILTIN_SERVICE;
  try {
    return new URL(service.baseUrl).origin;
  } catch {
    return service.baseUrl;
  }
}

/**
 * The same owner: all four alike. A record without a model (or a provider, before a standard
 * partner's clinician signed in) matches nobody: it fails closed.
 */
export function sameTarget(a: DeliveryTarget, b: DeliveryTarget): boolean {
  return (
    a.model !== undefined &&
    a.model === b.model &&
    a.providerId !== '' &&
    a.service === b.service &&
    a.partnerId === b.partnerId &&
    a.providerId === b.providerId
  );
}

/**
 * The same clinician at the same service and partner, under whichever sign-in model: for a check
 * that fails closed when it finds more (a PIN kept for them must exist), never for ownership.
 */
export function sameAccount(a: DeliveryTarget, b: DeliveryTarget): boolean {
  return a.service === b.service && a.partnerId === b.partnerId && a.providerId === b.providerId;
}

/** "dr-x at scribe.example.org", "dr-x in the demo": for a sentence that says where a visit belongs. */
export function describeTarget(target: DeliveryTarget): string {
  const who = target.providerId || 'its provider';
  if (target.service === BUILTIN_SERVICE) return `${who} in the demo`;
  let host = target.service;
  try {
    host = new URL(target.service).host;
  } catch {
    // Shown as stored.
  }
  return `${who} at ${host}`;
}
