import { z } from 'zod';

/**
 * The window's lock (issue 29): main holds it, so a reload, a second tab or a restart finds the
 * window locked again, and unlocking proves who the person at the keyboard is.
 */

/**
 * How this window is unlocked:
 * - `pin`: a Bearer or Single Auth Token partner's clinician, with the PIN they chose here (their
 *   partner token is the organisation's and proves nobody);
 * - `identity-provider`: a standard partner's clinician signs in again at their IdP, password and all;
 * - `continue`: nothing of a patient to protect (the built-in demo, or nobody signed in yet).
 */
export const UNLOCK_METHODS = ['pin', 'identity-provider', 'continue'] as const;
export type UnlockMethod = (typeof UNLOCK_METHODS)[number];

export const privacyStatusSchema = z.object({
  locked: z.boolean(),
  unlockWith: z.enum(UNLOCK_METHODS),
  /** `pin`: wrong tries left before the clinician is sent to a full sign-in. */
  pinTriesLeft: z.number().int().nonnegative().optional(),
  /**
   * `pin`: after too many wrong tries, how long until the next try is taken, ms from this status
   * (a duration, not a time: the window counts it down on its own clock).
   */
  pinWaitMs: z.number().nonnegative().optional(),
  /** Whose window it is: the provider who unlocks it. */
  clinician: z.string().optional(),
  /**
   * Signed in as a Bearer or Single Auth Token partner's clinician with no PIN on this computer:
   * the window asks them to choose one before anything of a visit is shown.
   */
  pinNeeded: z.boolean(),
});
export type PrivacyStatus = z.infer<typeof privacyStatusSchema>;

/** The PIN as typed; main says which rule it breaks (digits, length). */
const pinSchema = z.string().max(100, { message: 'must be at most 100 characters' });

export const unlockRequestSchema = z.union([
  /** `continue` */
  z.undefined(),
  z.object({ pin: pinSchema }).strict(),
  /** `identity-provider`: main opens the IdP's sign-in page and waits for it. */
  z.object({ signIn: z.literal(true) }).strict(),
]);

export const setPinSchema = z.object({ pin: pinSchema }).strict();
