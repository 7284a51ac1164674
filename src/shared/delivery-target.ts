import { z } from 'zod';

/**
 * Where a visit's audio and credentials belong (issue 28): the service they were meant for and the
 * account (partner and provider) they were recorded under. A spooled visit records its target when
 * it starts and is only ever delivered there, as that provider; a changed service address, partner
 * or provider leaves it waiting, never sends a patient's audio to another service or account.
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

export function sameTarget(a: DeliveryTarget, b: DeliveryTarget): boolean {
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
