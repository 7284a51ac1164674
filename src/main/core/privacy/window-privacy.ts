import type { PrivacyStatus } from '../../../shared/contract';
import type { DeliveryTarget } from '../../../shared/delivery-target';
import type { AuthModel } from '../../../shared/settings';
import type { JsonStorage, Logger } from '../ports';
import { UserFacingError } from '../user-facing-error';
import type { createSignOutGate } from './sign-out-gate';
import { blockedSentence, signInBlockedSentence, unusableSentence, wrongPinSentence } from './pin-sentences';
import { PIN_RULE, PinRuleError, type UnlockPins } from './unlock-pins';
import { keptSchema, type Kept, type LockedFor, type UnlockHow } from './privacy-record';

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
  /** privacy.json in the data directory, sealed and counted: the lock and the sign-out outlive a restart. */
  storage: JsonStorage;
  clinician(): ClinicianHere;
  /** A fresh sign-in at the IdP that must be this provider (standard partners). */
  reauthenticate(providerId: string): Promise<void>;
  recording(): boolean;
  /** The window's held edits and links go: nothing of a patient stays in memory. */
  forgetHeld(): void;
  /** Too many wrong PINs: signed out, as the clinician's own Sign out does. */
  signOut(): Promise<void>;
  /**
   * A standard partner's sign-in kept on this computer (its refresh token), and whom it signs in
   * as when that is known; undefined when none is kept. The app starts locked for them.
   */
  storedSignIn(): Promise<{ subject?: string } | undefined>;
  onChange(status: PrivacyStatus): void;
  log: Logger;
  /** The clock PIN waits are measured on (the PINs' own). */
  now?: () => number;
}

export function createWindowPrivacy(deps: WindowPrivacyDeps) {
  const { gate, pins, log } = deps;
  let lockedFor: LockedFor | undefined;
  /**
   * The clinician who proved it here since the window last locked (chose their PIN, or unlocked
   * with it or at the IdP). Another provider with a PIN, signed in by a change of settings or a
   * link, has not: the window locks.
   */
  let proven: string | undefined;
  /**
   * The next sign-in at the IdP asks for the password whatever session its browser holds (issue
   * 39, item 1). Set by Sign out, and cleared only once such a sign-in completed: one that was
   * cancelled or timed out leaves it owed, so the second try cannot ride the last clinician's IdP
   * session. A record that is missing or unreadable owes it too (fails closed).
   */
  let passwordOwed = false;
  const keyOf = (who: DeliveryTarget) => JSON.stringify([who.service, who.partnerId, who.providerId]);
  const lockedAsNow = (here: ClinicianHere): LockedFor => ({
    target: here.target,
    model: here.model,
    demo: here.demo,
  });

  const keep = async () => {
    const kept: Kept = {
      ...(gate.signedOut() ? { signedOut: true } : {}),
      ...(passwordOwed ? { passwordOwed: true } : {}),
      ...(gate.locked() && lockedFor ? { lockedFor } : {}),
    };
    await deps.storage
      .write(kept)
      .catch((error: unknown) =>
        log.warn('privacy: could not keep the lock for the next start', { error: (error as Error).name }),
      );
  };

  /** PINs are for clinicians whose sign-in proves nothing: not the demo's, not a standard partner's. */
  const usesPin = (who: LockedFor) => !who.demo && who.model !== 'standard' && who.target.providerId !== '';

  const method = async (who: LockedFor): Promise<UnlockHow> => {
    // Nothing of a patient to protect: the demo's.
    if (who.demo) return { with: 'continue' };
    // A standard partner's clinician proves it at the IdP, even one whose name is not known.
    if (who.model === 'standard') return { with: 'identity-provider' };
    // Nobody known to sign in as with the shared token: no PIN to ask for.
    if (who.target.providerId === '') return { with: 'continue' };
    const pin = await pins.state(who.target);
    if (pin.kind === 'set') return { with: 'pin', triesLeft: pin.triesLeft, waitUntil: pin.waitUntil };
    if (pin.kind === 'blocked')
      return { with: 'pin', triesLeft: 0, ...(pin.reason ? { unusable: pin.reason } : {}) };
    // Never chose one (the window asks at the first sign-in): nothing to prove it with.
    return { with: 'continue' };
  };

  /**
   * The clinician the app acts for unlocks with a PIN and has not chosen one here yet: the window
   * asks for it once they are signed in, and the contract refuses the rest until then, signed in
   * or not (a bearer partner's sign-in happens at the first call to the service).
   */
  const pinMissing = async (): Promise<'sign in first' | 'choose it' | undefined> => {
    const here = deps.clinician();
    if (gate.locked() || !usesPin(lockedAsNow(here)) || (await pins.state(here.target)).kind !== 'none')
      return undefined;
    return here.signedIn ? 'choose it' : 'sign in first';
  };

  const status = async (): Promise<PrivacyStatus> => {
    const here = deps.clinician();
    const who = lockedFor ?? lockedAsNow(here);
    const how = await method(who);
    const pinNeeded = (await pinMissing()) === 'choose it';
    return {
      locked: gate.locked(),
      unlockWith: how.with,
      ...(how.triesLeft !== undefined ? { pinTriesLeft: how.triesLeft } : {}),
      ...(how.waitUntil !== undefined
        ? { pinWaitMs: Math.max(0, how.waitUntil - (deps.now ?? Date.now)()) }
        : {}),
      ...(who.target.providerId ? { clinician: who.target.providerId } : {}),
      pinNeeded,
    };
  };

  const changed = async (): Promise<PrivacyStatus> => {
    const now = await status();
    deps.onChange(now);
    return now;
  };

  const lockFor = (who: LockedFor) => {
    lockedFor = who;
    proven = undefined;
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

  /**
   * A blocked PIN (too many wrong tries, or none kept for a clinician with visits here): signed
   * out, and nobody signs in as its clinician. At start nothing has signed in and the rest of the
   * core is not made yet: the sign-out is this record's alone, and the window reads it as it loads.
   */
  const signOutBlocked = async ({ atStart = false } = {}) => {
    gate.unlock();
    lockedFor = undefined;
    proven = undefined;
    if (atStart) {
      gate.signOut();
      passwordOwed = true;
    } else await deps.signOut();
    await keep();
    if (!atStart) await changed();
  };

  /**
   * The clinician the settings (or a link) now name, before anything signs in as them: one with
   * a PIN who has not given it since the last lock gets a locked window; one whose PIN is blocked,
   * a signed-out one. Whatever cannot be read locks (fails closed).
   */
  const guardClinician = async ({ atStart = false } = {}): Promise<void> => {
    const here = deps.clinician();
    const now = lockedAsNow(here);
    if (gate.locked() || gate.signedOut() || !usesPin(now) || proven === keyOf(here.target)) return;
    let pin: Awaited<ReturnType<UnlockPins['state']>>;
    try {
      pin = await pins.state(here.target);
    } catch (error) {
      log.warn('privacy: the PINs could not be read; the window locks', { error: (error as Error).name });
      lockFor(now);
      await keep();
      return;
    }
    if (pin.kind === 'set') {
      lockFor(now);
      await keep();
      log.info('privacy: a clinician with a PIN is signing in; the window locked');
    } else if (pin.kind === 'blocked') {
      log.info('privacy: a clinician whose PIN is blocked; the window signs out');
      await signOutBlocked({ atStart });
    }
  };

  /**
   * A standard partner's sign-in kept here starts locked for its clinician, whatever privacy.json
   * says (issue 39, item 3): deleting the file, or its lock, let the refresh token sign in with no
   * lock. A subject that is not known (or secrets that cannot be read) locks for whoever proves it
   * at the IdP, who then sees only their own visits.
   */
  const lockForStoredSignIn = async (): Promise<void> => {
    const here = deps.clinician();
    if (gate.signedOut() || here.demo || here.model !== 'standard') return;
    if (gate.locked() && lockedFor?.target.providerId) return;
    const stored = await deps.storedSignIn().catch((): { subject?: string } => ({}));
    if (!stored) return;
    lockFor({ target: { ...here.target, providerId: stored.subject ?? '' }, model: 'standard', demo: false });
    await keep();
    log.info('privacy: a sign-in is kept on this computer; the app starts locked');
  };

  return {
    status,
    pinMissing,
    /**
     * At start: the lock and the sign-out of the last run; a PIN's clinician, and one whose
     * sign-in is kept here, start locked whatever privacy.json says.
     */
    async restore(): Promise<void> {
      const read = keptSchema.safeParse(await deps.storage.read().catch(() => undefined));
      const kept = read.success ? read.data : {};
      if (kept.signedOut) gate.signOut();
      // A record from before the flag existed owes it after a Sign out; no record owes it.
      passwordOwed = !read.success || kept.passwordOwed === true || kept.signedOut === true;
      // A lock for the demo or for nobody opens with Continue: as read from a file a user can
      // edit, it is the lock of whoever the app signs in as now, with what they must prove.
      if (kept.lockedFor)
        lockFor(
          kept.lockedFor.demo || kept.lockedFor.target.providerId === ''
            ? lockedAsNow(deps.clinician())
            : kept.lockedFor,
        );
      // Locked for a clinician whose PIN cannot be tried (none kept, or an older store): the lock
      // showed "0 tries left". Signed out instead, as when it stopped unlocked (issue 39, item 2).
      if (gate.locked() && lockedFor && usesPin(lockedFor)) {
        const pin = await pins.state(lockedFor.target).catch(() => undefined);
        if (pin?.kind === 'blocked' && pin.reason !== undefined) await signOutBlocked({ atStart: true });
      }
      await lockForStoredSignIn().catch((error: unknown) =>
        log.warn('privacy: could not check for a kept sign-in at start', { error: (error as Error).name }),
      );
      // Whatever that file says (a user can write it): the clinician with a PIN starts locked.
      await guardClinician({ atStart: true }).catch((error: unknown) =>
        log.warn('privacy: could not check the PIN at start', { error: (error as Error).name }),
      );
      if (gate.locked() || gate.signedOut()) log.info('privacy: the app starts locked or signed out');
    },
    async lock(): Promise<PrivacyStatus> {
      // Never while a visit records: the recording screen stays (the window does the same).
      if (deps.recording())
        throw new UserFacingError('invalid_request', 'A visit is being recorded: the window does not lock.');
      lockFor(lockedFor ?? lockedAsNow(deps.clinician()));
      await keep();
      log.info('privacy: the window locked');
      return changed();
    },
    async unlock(request: { pin: string } | { signIn: true } | undefined): Promise<PrivacyStatus> {
      if (!gate.locked()) return status();
      const who = lockedFor ?? lockedAsNow(deps.clinician());
      const providerId = who.target.providerId;
      const how = await method(who);
      if (how.with === 'continue') return unlocked();
      if (how.with === 'identity-provider') {
        if (!request || !('signIn' in request))
          throw new UserFacingError('invalid_request', `Sign in as ${providerId} to unlock this window.`);
        await deps.reauthenticate(providerId);
        return unlocked(who.target);
      }
      if (!request || !('pin' in request) || request.pin === '')
        throw new UserFacingError('invalid_request', 'Enter your PIN to unlock this window.', [
          { field: 'pin', message: 'is required' },
        ]);
      if (how.unusable) {
        // No PIN kept for a clinician who recorded here (missing-pin.ts), or a store older than the
        // last one written (pin-generation.ts): nothing to try it against.
        await signOutBlocked();
        throw new UserFacingError(
          'invalid_request',
          `${unusableSentence(how.unusable, providerId)}: this window signed out. ${blockedSentence(providerId)}`,
          [{ field: 'pin', message: 'has nothing kept to be checked against' }],
        );
      }
      const check = await pins.check(who.target, request.pin);
      if (check.ok) return unlocked(who.target);
      if (check.triesLeft > 0) {
        await changed();
        throw new UserFacingError('invalid_request', wrongPinSentence(check, (deps.now ?? Date.now)()), [
          { field: 'pin', message: check.waiting ? 'must wait before the next try' : 'is not right' },
        ]);
      }
      // The last try, or one the store could not keep (it now reads as changed): the window signs
      // out, and the PIN stays blocked until IT acts.
      const after = await pins.state(who.target);
      await signOutBlocked();
      const why = after.kind === 'blocked' && after.reason ? unusableSentence(after.reason, providerId) : '';
      throw new UserFacingError(
        'invalid_request',
        `${why || 'Too many wrong PINs'}: this window signed out. ${blockedSentence(providerId)}`,
        [{ field: 'pin', message: 'was wrong too many times' }],
      );
    },
    async setPin(pin: string): Promise<PrivacyStatus> {
      const here = deps.clinician();
      if (gate.locked()) throw new UserFacingError('invalid_request', 'Unlock this window first.');
      if (!here.signedIn || !usesPin(lockedAsNow(here)))
        throw new UserFacingError(
          'invalid_request',
          'A PIN is for a signed-in clinician of a partner whose token is shared.',
        );
      const kept = await pins.state(here.target);
      if (kept.kind === 'blocked')
        throw new UserFacingError(
          'invalid_request',
          `No PIN can be chosen now. ${blockedSentence(here.target.providerId)}`,
        );
      // Changing a PIN needs the old one: unlock, which asks for it, happens first.
      if (kept.kind !== 'none')
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
     * for it; a blocked PIN signs nobody in. A locked window is unlocked, not signed in again.
     */
    async signIn(): Promise<void> {
      if (gate.locked())
        throw new UserFacingError('invalid_request', 'This window is locked: unlock it first.');
      const here = deps.clinician();
      if (usesPin(lockedAsNow(here))) {
        const pin = await pins.state(here.target);
        // One sentence, said wherever Sign in was pressed (issue 37: it was refused silently).
        if (pin.kind === 'blocked')
          throw new UserFacingError(
            'invalid_request',
            signInBlockedSentence(here.target.providerId, pin.reason),
          );
        if (pin.kind === 'set') lockFor(lockedAsNow(here));
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
      passwordOwed = true;
      gate.unlock();
      lockedFor = undefined;
      proven = undefined;
      await keep();
      await changed();
    },
    /** Whether the next sign-in at the IdP must ask for the password (see passwordOwed). */
    passwordOwed: () => passwordOwed,
    /** A sign-in that asked for the password completed: the next one may use the IdP's session. */
    async passwordGiven(): Promise<void> {
      if (!passwordOwed) return;
      passwordOwed = false;
      await keep();
    },
    /** Tells the window where the lock stands now (a blocked PIN cleared by IT, say). */
    changed,
    /**
     * Another clinician signs in (Settings' provider changed, a link's switch, a sign-in that
     * landed): locked or signed out as guardClinician says. Whether a PIN is needed may change too.
     */
    async clinicianChanged(): Promise<PrivacyStatus> {
      await guardClinician();
      return changed();
    },
  };
}

export type WindowPrivacy = ReturnType<typeof createWindowPrivacy>;
