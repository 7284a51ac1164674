import { describe, expect, it, vi } from 'vitest';
import type { Notification } from '../../../shared/service';
import { createNotificationReceiver, type ReceiverOptions } from './receiver';
import { signNotification } from './signature';
import { SECRET, failurePayload, successPayload } from '../../../../sandbox/webhook/test-helpers';

const NOW = 1_700_000_000_000;
const FIVE_MINUTES = 5 * 60 * 1000;

function signed(rawBody: string, { at = NOW, secret = SECRET } = {}) {
  const generatedAt = String(at);
  return {
    headers: {
      'content-type': 'application/json',
      'x-event-name': 'session_summary_generated',
      'generated-at': generatedAt,
      'x-api-key': signNotification(secret, generatedAt, rawBody),
    },
    rawBody,
  };
}

function setup(options: Partial<ReceiverOptions> = {}) {
  const received: Notification[] = [];
  const onNotification = vi.fn((n: Notification) => void received.push(n));
  const receiver = createNotificationReceiver({ secret: SECRET, now: () => NOW, onNotification, ...options });
  return { receiver, received, onNotification };
}

describe('createNotificationReceiver', () => {
  it('answers 200 to a signed success or failure payload after onNotification ran', async () => {
    const { receiver, received } = setup();
    const success = successPayload();
    const failure = failurePayload();
    expect(await receiver.handle(signed(JSON.stringify(success)))).toEqual({
      status: 200,
      body: { message: 'ok' },
    });
    expect((await receiver.handle(signed(JSON.stringify(failure)))).status).toBe(200);
    expect(received).toEqual([success, failure]);
  });

  it('waits for an async onNotification before answering', async () => {
    const order: string[] = [];
    const { receiver } = setup({
      onNotification: async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        order.push('processed');
      },
    });
    const answer = await receiver.handle(signed(JSON.stringify(successPayload())));
    order.push(`answered ${answer.status}`);
    expect(order).toEqual(['processed', 'answered 200']);
  });

  it('answers 401 to a wrong secret, a tampered body or missing headers', async () => {
    const { receiver, onNotification } = setup();
    const body = JSON.stringify(successPayload());
    const wrongSecret = await receiver.handle(signed(body, { secret: 'not-the-partner-secret' }));
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body).toEqual({ code: 401, message: expect.stringMatching(/^invalid_signature: /) });

    const tampered = signed(body);
    expect((await receiver.handle({ ...tampered, rawBody: body.replace('enc42', 'enc43') })).status).toBe(
      401,
    );

    const { 'x-api-key': _key, ...noKey } = signed(body).headers;
    expect((await receiver.handle({ headers: noKey, rawBody: body })).status).toBe(401);
    const { 'generated-at': _at, ...noTime } = signed(body).headers;
    expect((await receiver.handle({ headers: noTime, rawBody: body })).status).toBe(401);
    const notMs = { ...signed(body).headers, 'generated-at': '2023-11-14T22:13:20Z' };
    expect((await receiver.handle({ headers: notMs, rawBody: body })).status).toBe(401);
    expect(onNotification).not.toHaveBeenCalled();
  });

  it('answers 401 to a generated-at older than 5 minutes or too far in the future', async () => {
    const { receiver, onNotification } = setup();
    const body = JSON.stringify(successPayload());
    const stale = await receiver.handle(signed(body, { at: NOW - FIVE_MINUTES - 1 }));
    expect(stale).toEqual({ status: 401, body: { code: 401, message: expect.stringContaining('old') } });
    const future = await receiver.handle(signed(body, { at: NOW + 2 * 60 * 1000 }));
    expect(future).toEqual({ status: 401, body: { code: 401, message: expect.stringContaining('future') } });
    expect(onNotification).not.toHaveBeenCalled();
    // The boundaries themselves are accepted: exactly 5 minutes old, a little clock skew ahead.
    expect((await receiver.handle(signed(body, { at: NOW - FIVE_MINUTES }))).status).toBe(200);
    expect((await receiver.handle(signed(JSON.stringify(failurePayload()), { at: NOW + 1000 }))).status).toBe(
      200,
    );
  });

  it('checks the signature before the body: an unsigned empty body is 401, a signed one 400', async () => {
    const { receiver } = setup();
    expect((await receiver.handle({ headers: {}, rawBody: '' })).status).toBe(401);
    expect(await receiver.handle(signed(''))).toEqual({
      status: 400,
      body: { code: 400, message: 'invalid_request: the body is empty' },
    });
    expect((await receiver.handle(signed('  \n'))).status).toBe(400);
  });

  it('answers 400 to a body that is not JSON, has another status or is not a valid payload', async () => {
    const { receiver, onNotification } = setup();
    const bodies = [
      '{"status":"success",',
      JSON.stringify({ ...successPayload(), status: 'pending' }),
      JSON.stringify({ session_id: 'x', encounter_id: 'y' }),
      JSON.stringify([successPayload()]),
      'null',
      JSON.stringify({ status: 'success', session_id: 'x' }),
      JSON.stringify({ ...failurePayload(), error_code: 42 }),
    ];
    for (const body of bodies) {
      const answer = await receiver.handle(signed(body));
      expect(answer.status, body).toBe(400);
      expect(answer.body).toEqual({ code: 400, message: expect.stringMatching(/^invalid_request: /) });
    }
    expect(onNotification).not.toHaveBeenCalled();
  });

  it('deduplicates by session_id + status: a redelivery gets 200 without a second call', async () => {
    const { receiver, onNotification } = setup();
    const body = JSON.stringify(successPayload('s-dup'));
    expect((await receiver.handle(signed(body))).status).toBe(200);
    // A retry is signed afresh, so its generated-at and signature differ; the payload is the same.
    expect((await receiver.handle(signed(body, { at: NOW + 500 }))).status).toBe(200);
    expect(onNotification).toHaveBeenCalledTimes(1);
    // The same session with the other status is a different notification.
    expect((await receiver.handle(signed(JSON.stringify(failurePayload('s-dup'))))).status).toBe(200);
    expect(onNotification).toHaveBeenCalledTimes(2);
  });

  it('does not run onNotification twice when a redelivery arrives while the first is still running', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const onNotification = vi.fn(() => gate);
    const { receiver } = setup({ onNotification });
    const body = JSON.stringify(successPayload('s-concurrent'));
    const first = receiver.handle(signed(body));
    const second = receiver.handle(signed(body));
    release();
    expect((await Promise.all([first, second])).map((a) => a.status)).toEqual([200, 200]);
    expect(onNotification).toHaveBeenCalledTimes(1);
  });

  it('answers 500 when onNotification fails, and processes the redelivery', async () => {
    const onNotification = vi.fn().mockRejectedValueOnce(new Error('disk full')).mockResolvedValue(undefined);
    const { receiver } = setup({ onNotification });
    const body = JSON.stringify(successPayload('s-retry'));
    expect(await receiver.handle(signed(body))).toEqual({
      status: 500,
      body: { code: 500, message: 'internal_error: disk full' },
    });
    expect((await receiver.handle(signed(body))).status).toBe(200);
    expect(onNotification).toHaveBeenCalledTimes(2);
  });

  it('reads header names case-insensitively and refuses an ambiguous repeated header', async () => {
    const { receiver } = setup();
    const body = JSON.stringify(successPayload());
    const { headers } = signed(body);
    const mixedCase = { 'Generated-At': headers['generated-at'], 'X-API-Key': headers['x-api-key'] };
    expect((await receiver.handle({ headers: mixedCase, rawBody: body })).status).toBe(200);
    const repeated = { ...headers, 'x-api-key': [headers['x-api-key'], headers['x-api-key']] };
    expect((await receiver.handle({ headers: repeated, rawBody: body })).status).toBe(401);
  });
});
