/** What the lock says of PINs, in the clinician's words (issue 37). */

/**
 * What a refused PIN says (issue 37): whether it was checked, the wait before the next try, and the
 * tries left before IT must reset it.
 */
export function wrongPinSentence(
  check: { triesLeft: number; waitUntil?: number; waiting?: true },
  now: number,
): string {
  const tries = `${check.triesLeft} ${check.triesLeft === 1 ? 'try' : 'tries'} left before IT must reset it`;
  const wait = check.waitUntil === undefined ? undefined : waitWords(check.waitUntil - now);
  if (check.waiting) return `Too many wrong PINs: wait ${wait} before the next try (${tries}).`;
  if (wait) return `That PIN is not right. Wait ${wait} before the next try (${tries}).`;
  return `That PIN is not right. ${check.triesLeft} ${check.triesLeft === 1 ? 'try' : 'tries'} left.`;
}

/** A wait in words: "30 seconds", "2 minutes", "32 minutes". */
function waitWords(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1_000));
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

export const blockedSentence = (providerId: string) =>
  `Your IT admin enters the partner token again in Settings; then ${providerId} signs in and chooses a new PIN.`;

/** Why a clinician's PIN cannot be tried: none kept for them, or the store was changed outside the app. */
export const unusableSentence = (why: 'missing' | 'changed', providerId: string) =>
  why === 'missing'
    ? `The PIN kept for ${providerId} on this computer is missing`
    : 'The PINs on this computer were changed outside the app';

/** Sign in refused for a clinician whose PIN is blocked, and why. */
export const signInBlockedSentence = (providerId: string, why: 'missing' | 'changed' | undefined) =>
  `${providerId} cannot sign in here until your IT admin enters the partner token again in Settings: ${SIGN_IN_BLOCKED_BECAUSE[why ?? 'tries']}.`;

const SIGN_IN_BLOCKED_BECAUSE = {
  missing: 'the PIN kept for them on this computer is missing',
  changed: 'the PINs on this computer were changed outside the app',
  tries: 'too many wrong PINs',
} as const;
