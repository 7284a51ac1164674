import { z } from 'zod';
import type { UnlockMethod } from '../../../shared/contract';
import { deliveryTargetSchema } from '../../../shared/delivery-target';

/**
 * privacy.json (window-privacy.ts): the lock and the sign-out, kept across a restart. Sealed and
 * counted (sealed/sealed-json-storage.ts): a copy edited, put back from before, or without its
 * count reads as missing. Even so it is read as a hint that can only close the window further: a
 * missing record owes the password, and a PIN or a kept sign-in locks whatever it says.
 */

/** Whose window is locked, as it was then: the unlock is theirs, whatever the settings say since. */
export const lockedForSchema = z.object({
  target: deliveryTargetSchema,
  model: z.enum(['standard', 'bearer', 'single_auth_token']),
  demo: z.boolean(),
});
export type LockedFor = z.infer<typeof lockedForSchema>;

export const keptSchema = z.object({
  signedOut: z.boolean().optional(),
  passwordOwed: z.boolean().optional(),
  lockedFor: lockedForSchema.optional(),
});
export type Kept = z.infer<typeof keptSchema>;

/** How the window's lock opens for a clinician now, with what the lock screen says of the PIN. */
export interface UnlockHow {
  with: UnlockMethod;
  triesLeft?: number;
  waitUntil?: number | undefined;
  /** Blocked with nothing to try a PIN against: none kept, or an older store (pin-generation.ts). */
  unusable?: 'missing' | 'changed';
}
