import { z } from 'zod';
import type { PrivacyStatus, UnlockMethod } from '../../../shared/contract';
import { deliveryTargetSchema, type DeliveryTarget } from '../../../shared/delivery-target';
import type { AuthModel } from '../../../shared/settings';
import type { JsonStorage, Logger } from '../ports';
import { UserFacingError } from '../user-facing-error';
import type { createSignOutGate } from './sign-out-gate';
import { PIN_RULE, PinRuleError, type UnlockPins } from './unlock-pins';

/**
 * Who may open this window again (issue 29): the idle lock and Sign out, held by main and kept
 * across a restart, and unlocking that proves who it is.
 *
 * - A Bearer or Single Auth Token partner's clinician unlocks with the PIN they chose at their
 *   first sign-in here. Once they have one, the app starts locked, and Sign in after Sign out asks
 *   for it too: the organisation's partner token would sign anybody in as them. Five wrong tries
 *   and the PIN is blocked: the window signs out, and only the partner token entered again (by
 *   IT) lets them sign in and choose a new one.
 * - A standard partner's clinician signs in again at their IdP, password and all, as themselves.
 * - The built-in demo has no patient to protect: Continue.
 */

type SignOutGate = ReturnType<typeof createSignOutGate>;

export interface ClinicianHere {
  /** The clinician the window acts for (a standard partner's: who signed in at the IdP, if known). */
  target: DeliveryTarget;
  model: AuthModel;
  demo: boolean;
  signedIn: boolean;
}

export interface WindowPrivacyDeps {
  gate: SignOutGate;
  pins: UnlockPins;
  /** privacy.json in the data directory: the lock and the sign-out outlive a restart. */
  storage: JsonStorage;
  clinician(): ClinicianHere;
  /** A fresh sign-in at the IdP that must be this provider (standard partners). */
  reauthenticate(providerId: string): Promise<void>;
  recording(): boolean;
  /** The window's held edits and links go: nothing of a patient stays in memory. */
  forgetHeld(): void;
  /** Too many wrong PINs: signed out, as the clinician's own Sign out does. */
  signOut(): Promise<void>;
  onChange(status: PrivacyStatus): void;
  log: Logger;
}

const keptSchema = z.object({
  signedOut: z.boolean().optional(),
  lockedFor: deliveryTargetSchema.optional(),
});
type Kept = z.infer<typeof keptSchema>;

export function createWindowPrivacy(deps: WindowPrivacyDeps) {
  const { gate, pins, log } = deps;
  /** Whose window is locked (the clinician at the time of the lock), while it is. */
  let lockedFor: DeliveryTarget | undefined;
  /**
   * The clinician who last proved it here (chose their PIN, or unlocked with it or at the IdP).
   * Another provider with a PIN, signed in by a change of settings, has not: the window locks.
   */
  let proven: string | undefined;
  const keyOf = (who: DeliveryTarget) => JSON.stringify([who.service, who.partnerId, who.providerId]);

  const keep = async () => {
    const kept: Kept = {
      ...(gate.signedOut() ? { signedOut: true } : {}),
      ...(gate.locked() && lockedFor ? { lockedFor } : {}),
    };
    await deps.storage
      .write(kept)
      .catch((error: unknown) =>
        log.warn('privacy: could not keep the lock for the next start', { error: (error as Error).name }),
      );
  };

  /** PINs are for clinicians whose sign-in proves nothing: not the demo's, not a standard partner's. */
  const usesPin = (here: ClinicianHere) =>
    !here.demo && here.model !== 'standard' && here.target.providerId !== '';

  const method = async (
    here: ClinicianHere,
    who: DeliveryTarget,
  ): Promise<{ with: UnlockMethod; triesLeft?: number }> => {
    if (here.demo || who.providerId === '') return { with: 'continue' };
    if (here.model === 'standard') return { with: 'identity-provider' };
    const pin = await pins.state(who);
    if (pin.kind === 'set') return { with: 'pin', triesLeft: pin.triesLeft };
    if (pin.kind === 'blocked') return { with: 'pin', triesLeft: 0 };
    return { with: 'continue' };
  };

  const status = async (): Promise<PrivacyStatus> => {
    const here = deps.clinician();
    const who = lockedFor ?? here.target;
    const how = await method(here, who);
    const pinNeeded =
      !gate.locked() && here.signedIn && usesPin(here) && (await pins.state(here.target)).kind === 'none';
    return {
      locked: gate.locked(),
      unlockWith: how.with,
      ...(how.triesLeft !== undefined ? { pinTriesLeft: how.triesLeft } : {}),
      ...(who.providerId ? { clinician: who.providerId } : {}),
      pinNeeded,
    };
  };

  const changed = async (): Promise<PrivacyStatus> => {
    const now = await status();
    deps.onChange(now);
    return now;
  };

  const lockFor = (who: DeliveryTarget) => {
    lockedFor = who;
    gate.lock();
    deps.forgetHeld();
  };

  const unlocked = async (provedBy?: DeliveryTarget): Promise<PrivacyStatus> => {
    if (provedBy) proven = keyOf(provedBy);
    gate.unlock();
    lockedFor = undefined;
    await keep();
    log.info('privacy: the window was unlocked');
    return changed();
  };

  return {
    status,
    /** At start: the lock and the sign-out of the last run, and a PIN's clinician starts locked. */
    async restore(): Promise<void> {
      const read = keptSchema.safeParse(await deps.storage.read().catch(() => undefined));
      const kept = read.success ? read.data : {};
      if (kept.signedOut) gate.signOut();
      const here = deps.clinician();
      if (kept.lockedFor) lockFor(kept.lockedFor);
      else if (usesPin(here) && !gate.signedOut()) {
        const pin = await pins.state(here.target);
        if (pin.kind === 'set') lockFor(here.target);
        // Blocked at the last run's end: signed out, as the last try left it.
        if (pin.kind === 'blocked') gate.signOut();
      }
      if (gate.locked() || gate.signedOut()) log.info('privacy: the app starts locked or signed out');
    },
    async lock(): Promise<PrivacyStatus> {
      // Never while a visit records: the recording screen stays (the window does the same).
      if (deps.recording())
        throw new UserFacingError('invalid_request', 'A visit is being recorded: the window does not lock.');
      lockFor(lockedFor ?? deps.clinician().target);
      await keep();
      log.info('privacy: the window locked');
      return changed();
    },
    async unlock(request: { pin: string } | { signIn: true } | undefined): Promise<PrivacyStatus> {
      if (!gate.locked()) return status();
      const here = deps.clinician();
      const who = lockedFor ?? here.target;
      const how = await method(here, who);
      if (how.with === 'continue') return unlocked();
      if (how.with === 'identity-provider') {
        if (!request || !('signIn' in request))
          throw new UserFacingError('invalid_request', `Sign in as ${who.providerId} to unlock this window.`);
        await deps.reauthenticate(who.providerId);
        return unlocked(who);
      }
      if (!request || !('pin' in request) || request.pin === '')
        throw new UserFacingError('invalid_request', 'Enter your PIN to unlock this window.', [
          { field: 'pin', message: 'is required' },
        ]);
      const check = await pins.check(who, request.pin);
      if (check.ok) return unlocked(who);
      if (check.triesLeft > 0) {
        await changed();
        throw new UserFacingError(
          'invalid_request',
          `That PIN is not right. ${check.triesLeft} ${check.triesLeft === 1 ? 'try' : 'tries'} left.`,
          [{ field: 'pin', message: 'is not right' }],
        );
      }
      // The last try: the window signs out, and the PIN stays blocked until IT acts.
      gate.unlock();
      lockedFor = undefined;
      await deps.signOut();
      await keep();
      await changed();
      throw new UserFacingError(
        'invalid_request',
        `Too many wrong PINs: this window signed out. ${blockedSentence(who.providerId)}`,
        [{ field: 'pin', message: 'was wrong too many times' }],
      );
    },
    async setPin(pin: string): Promise<PrivacyStatus> {
      const here = deps.clinician();
      if (gate.locked()) throw new UserFacingError('invalid_request', 'Unlock this window first.');
      if (!here.signedIn || !usesPin(here))
        throw new UserFacingError(
          'invalid_request',
          'A PIN is for a signed-in clinician of a partner whose token is shared.',
        );
      // Changing a PIN needs the old one: unlock, which asks for it, happens first.
      if ((await pins.state(here.target)).kind !== 'none')
        throw new UserFacingError('invalid_request', 'You already have a PIN on this computer.');
      await pins.set(here.target, pin).catch((error: unknown) => {
        if (error instanceof PinRuleError)
          throw new UserFacingError('invalid_request', `PIN: ${error.rule}`, [
            { field: 'pin', message: PIN_RULE.sentence },
          ]);
        throw error;
      });
      proven = keyOf(here.target);
      return changed();
    },
    /**
     * The clinician's Sign in. Someone with a PIN here signs in to a locked window, which asks
     * for it; a blocked PIN signs nobody in.
     */
    async signIn(): Promise<void> {
      const here = deps.clinician();
      if (usesPin(here)) {
        const pin = await pins.state(here.target);
        if (pin.kind === 'blocked')
          throw new UserFacingError(
            'invalid_request',
            `Too many wrong PINs for ${here.target.providerId}. ${blockedSentence(here.target.providerId)}`,
          );
        if (pin.kind === 'set') lockFor(here.target);
      }
      gate.signIn();
      await keep();
      await changed();
    },
    /**
     * Sign out, from the workspace or a locked window ("Not you?"): the lock has nothing left to
     * protect, and signing in again as anyone with a PIN or an IdP asks them for it.
     */
    async signedOut(): Promise<void> {
      gate.signOut();
      gate.unlock();
      lockedFor = undefined;
      proven = undefined;
      await keep();
      await changed();
    },
    /**
     * Another clinician signs in (Settings' provider changed, a link's switch): one with a PIN
     * here who has not given it in this run gets a locked window that asks for it. Whether a PIN
     * is needed may have changed too.
     */
    /** Tells the window where the lock stands now (a blocked PIN cleared by IT, say). */
    changed,
    async clinicianChanged(): Promise<PrivacyStatus> {
      const here = deps.clinician();
      // Signed in or about to be (the settings were just saved): the lock comes first.
      if (!gate.locked() && !gate.signedOut() && usesPin(here) && proven !== keyOf(here.target)) {
        if ((await pins.state(here.target)).kind === 'set') {
          lockFor(here.target);
          await keep();
          log.info('privacy: another clinician with a PIN signed in; the window locked');
        }
      }
      return changed();
    },
  };
}

const blockedSentence = (providerId: string) =>
  `Your IT admin enters the partner token again in Settings; then ${providerId} signs in and chooses a new PIN.`;

export type WindowPrivacy = ReturnType<typeof createWindowPrivacy>;
