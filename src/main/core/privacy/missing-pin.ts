import type { DeliveryTarget } from '../../../shared/delivery-target';
import type { Logger } from '../ports';
import type { PinState, UnlockPins } from './unlock-pins';

/**
 * A clinician with visits on this computer and no PIN kept for them (issue 39, item 2): the PIN's
 * entry was deleted from the secrets file (a plain JSON edit, no keychain needed), or never
 * written. Read as "no PIN", the lock would offer Continue and let anyone choose a new PIN for
 * them, and with it their visits. A clinician who recorded here chose a PIN at their first
 * sign-in (the window asks before anything else), so a missing one is a record gone, and it fails
 * closed: blocked, as after too many wrong tries, until IT enters the partner token again, after
 * which the clinician signs in and chooses a new PIN in that run. A clinician with no visits here
 * is new to this computer and chooses one as before.
 */
export function failClosedOnMissingPin(
  pins: UnlockPins,
  deps: {
    /** Whether History holds a visit this clinician recorded here. */
    visitsHere(clinician: DeliveryTarget): boolean;
    log: Logger;
  },
): UnlockPins {
  /** Service and partner whose token IT entered again in this run: their clinicians choose anew. */
  const vouched = new Set<string>();
  const partnerOf = (service: string, partnerId: string) => JSON.stringify([service, partnerId]);
  const clinicianOf = (c: DeliveryTarget) => JSON.stringify([c.service, c.partnerId, c.providerId]);
  /**
   * Clinicians whose PIN was kept when IT entered the token, or chosen or seen since: IT's word
   * covers the PINs missing then, not one that goes missing later in the same run (a PIN entry
   * deleted after IT left would otherwise read as "choose a new PIN").
   */
  const keptSinceVouched = new Set<string>();
  /** Clinicians already logged as blocked this way: the gate asks on every verb, the log says it once. */
  const logged = new Set<string>();
  const missing = async (clinician: DeliveryTarget): Promise<PinState> => {
    const state = await pins.state(clinician);
    const key = clinicianOf(clinician);
    if (state.kind === 'set') keptSinceVouched.add(key);
    if (state.kind !== 'none') return state;
    const vouchedFor =
      vouched.has(partnerOf(clinician.service, clinician.partnerId)) && !keptSinceVouched.has(key);
    if (vouchedFor || !deps.visitsHere(clinician)) return state;
    if (!logged.has(key)) {
      logged.add(key);
      deps.log.warn('privacy: a clinician with visits here has no PIN kept; blocked until IT acts', {});
    }
    return { kind: 'blocked', reason: 'missing' };
  };
  return {
    state: missing,
    async set(clinician, pin) {
      // window-privacy's setPin refuses first, with the clinician's sentence; this holds the rule
      // for the store itself, whoever calls it.
      if ((await missing(clinician)).kind === 'blocked')
        throw new Error('a blocked PIN is not chosen anew before IT enters the partner token');
      await pins.set(clinician, pin);
      keptSinceVouched.add(clinicianOf(clinician));
    },
    check: (clinician, pin) => pins.check(clinician, pin),
    async clearBlocked(service, partnerId) {
      vouched.add(partnerOf(service, partnerId));
      const cleared = await pins.clearBlocked(service, partnerId);
      // From now on, of this partner's clinicians, only those with a PIN kept still have one to lose.
      for (const key of keptSinceVouched) {
        const [keyService, keyPartner] = JSON.parse(key) as [string, string, string];
        if (keyService === service && keyPartner === partnerId) keptSinceVouched.delete(key);
      }
      for (const providerId of await pins.keptFor(service, partnerId))
        keptSinceVouched.add(clinicianOf({ service, partnerId, providerId }));
      return cleared;
    },
    keptFor: (service, partnerId) => pins.keptFor(service, partnerId),
  };
}
