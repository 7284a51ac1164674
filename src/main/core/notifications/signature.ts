import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of session_summary_generated notifications, as the app checks it. The service's
 * side (the sandbox's sender) signs with its own code, so a mistake here cannot hide behind the
 * same mistake there; signNotification is the app's own reference, used by its tests.
 */

// protocol: Notifications (X-API-Key = lowercase hex HMAC-SHA-256 over `{generated-at}.{raw body}`)
export function signNotification(secret: string, generatedAt: string, rawBody: string): string {
  return createHmac('sha256', secret).update(`${generatedAt}.${rawBody}`, 'utf8').digest('hex');
}

/** 32 bytes of SHA-256 as hex. Checked before decoding, because Buffer.from(x, 'hex') silently truncates. */
const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * Timing-safe check of an X-API-Key value. Hex case is ignored (it carries no information), anything
 * that is not 64 hex digits is simply false. Never throws.
 */
export function verifyNotificationSignature(
  secret: string,
  generatedAt: string,
  rawBody: string,
  signature: string,
): boolean {
  if (!HEX_SHA256.test(signature)) return false;
  const expected = Buffer.from(signNotification(secret, generatedAt, rawBody), 'hex');
  const given = Buffer.from(signature, 'hex');
  // Both are 32 bytes here, so timingSafeEqual cannot throw on a length mismatch.
  return timingSafeEqual(expected, given);
}
