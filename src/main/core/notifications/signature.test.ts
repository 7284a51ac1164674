import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signNotification, verifyNotificationSignature } from './signature';
import { SECRET } from '../../../../sandbox/webhook/test-helpers';

const GENERATED_AT = '1700000000000';
const BODY = '{"status":"success","session_id":"s-1"}';

describe('signNotification', () => {
  it('is the lowercase hex HMAC-SHA-256 of `{generated-at}.{raw body}` (known answer)', () => {
    // Computed outside Node: printf '%s' '1700000000000.{...}' | openssl dgst -sha256 -hmac '<secret>'
    const known = 'e289b8e6671d1772a189850a74669927c211055c4bdb9664f02f9a52e232ceed';
    const independent = createHmac('sha256', SECRET).update(`${GENERATED_AT}.${BODY}`).digest('hex');
    expect(independent).toBe(known);
    expect(signNotification(SECRET, GENERATED_AT, BODY)).toBe(known);
  });

  it('signs the body byte for byte, including non-ASCII text', () => {
    const body = '{"error_detail":"Größe ✓"}';
    const expected = createHmac('sha256', SECRET)
      .update(Buffer.from(`${GENERATED_AT}.${body}`, 'utf8'))
      .digest('hex');
    expect(signNotification(SECRET, GENERATED_AT, body)).toBe(expected);
  });
});

describe('verifyNotificationSignature', () => {
  const good = signNotification(SECRET, GENERATED_AT, BODY);

  it('accepts the right signature, in either hex case', () => {
    expect(verifyNotificationSignature(SECRET, GENERATED_AT, BODY, good)).toBe(true);
    expect(verifyNotificationSignature(SECRET, GENERATED_AT, BODY, good.toUpperCase())).toBe(true);
  });

  it('rejects another secret, body or generated-at, and malformed values, without throwing', () => {
    expect(verifyNotificationSignature('another-secret-0000000', GENERATED_AT, BODY, good)).toBe(false);
    expect(verifyNotificationSignature(SECRET, GENERATED_AT, `${BODY} `, good)).toBe(false);
    expect(verifyNotificationSignature(SECRET, '1700000000001', BODY, good)).toBe(false);
    for (const bad of ['', good.slice(0, 63), `${good}00`, 'z'.repeat(64), `sha256=${good}`]) {
      expect(verifyNotificationSignature(SECRET, GENERATED_AT, BODY, bad)).toBe(false);
    }
  });
});
