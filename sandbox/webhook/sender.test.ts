import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '../../src/shared/service';
import { startNotificationReceiver } from '../../src/main/core/notifications/receiver-server';
import { createWebhookSender, type DeliveryRecord, type WebhookSender } from './sender';
import {
  SECRET,
  closedPortUrl,
  failurePayload,
  quietLog,
  startScriptedServer,
  successPayload,
  testTiming,
  type Script,
} from './test-helpers';

/** Everything started by a test, closed after it whatever happened. */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

function sender(...args: Parameters<typeof testTiming>): {
  sender: WebhookSender;
  log: ReturnType<typeof quietLog>;
} {
  const log = quietLog();
  const created = createWebhookSender({ timing: testTiming(...args), log });
  cleanups.push(() => created.close());
  return { sender: created, log };
}

async function scripted(script: Script) {
  const server = await startScriptedServer(script);
  cleanups.push(() => server.close());
  return server;
}

/** Generous: a busy 2-core machine may be slow, but the outcome is all that is asserted. */
const settled = (record: DeliveryRecord) =>
  vi.waitFor(() => expect(record.outcome).not.toBe('pending'), { timeout: 15_000, interval: 10 });

describe('createWebhookSender', () => {
  it('POSTs the payload with the protocol headers and a signature over generated-at and the raw body', async () => {
    const server = await scripted(() => 200);
    const { sender: s } = sender(1);
    const payload = successPayload();
    const before = Date.now();
    const record = s.deliver({ url: server.url, secret: SECRET }, payload);
    expect(record).toMatchObject({ url: server.url, session_id: payload.session_id, status: 'success' });
    expect(record.outcome).toBe('pending'); // deliver() returned before the request was made
    await settled(record);

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['x-event-name']).toBe('session_summary_generated');
    const generatedAt = String(request?.headers['generated-at']);
    expect(generatedAt).toMatch(/^\d+$/);
    expect(Number(generatedAt)).toBeGreaterThanOrEqual(before);
    expect(Number(generatedAt)).toBeLessThanOrEqual(Date.now());
    expect(request?.body).toBe(JSON.stringify(payload));
    const expected = createHmac('sha256', SECRET).update(`${generatedAt}.${request?.body}`).digest('hex');
    expect(request?.headers['x-api-key']).toBe(expected);

    expect(record.outcome).toBe('delivered');
    expect(record.attempts).toEqual([
      { at: expect.any(String), status_code: 200, duration_ms: expect.any(Number) },
    ]);
    expect(JSON.stringify(s.deliveries())).not.toContain(SECRET);
    expect(s.deliveries()).toEqual([record]);
  });

  it('reaches a receiver that verifies it with the same secret, which gets the exact payload', async () => {
    const received: Notification[] = [];
    const receiver = await startNotificationReceiver({
      secret: SECRET,
      onNotification: (n) => void received.push(n),
    });
    cleanups.push(() => receiver.close());
    const { sender: s } = sender(1);
    const success = s.deliver({ url: receiver.url, secret: SECRET }, successPayload());
    const failure = s.deliver({ url: receiver.url, secret: SECRET }, failurePayload());
    await Promise.all([settled(success), settled(failure)]);
    expect([success.outcome, failure.outcome]).toEqual(['delivered', 'delivered']);
    expect(received).toHaveLength(2);
    expect(received).toEqual(expect.arrayContaining([successPayload(), failurePayload()]));
  });

  it('is refused (401, retried, then failed) by a receiver with another secret', async () => {
    const receiver = await startNotificationReceiver({
      secret: 'another-partner-secret',
      onNotification: () => {},
    });
    cleanups.push(() => receiver.close());
    // The timeout at a real 5 s: scaled to 50 ms, a machine half as fast turned the receiver's 401
    // into a timeout (issue 36: the test's timing); the backoff stays scaled.
    const { sender: s } = sender(0.01, { webhookTimeoutMs: 5_000 });
    const record = s.deliver({ url: receiver.url, secret: SECRET }, successPayload());
    await settled(record);
    expect(record.outcome).toBe('failed');
    expect(record.attempts.map((a) => a.status_code)).toEqual([401, 401, 401, 401, 401, 401]);
  });

  it('retries a 500 with growing backoff gaps until the receiver answers 200', async () => {
    const server = await scripted((n) => (n < 2 ? 500 : 200));
    // Backoff 1 s × 0.2 = 200 ms, then 400 ms; the timeout stays at a real 5 s so a slow machine
    // cannot turn a quick 500 into a timeout and add attempts.
    const { sender: s, log } = sender(0.2, { webhookTimeoutMs: 5_000 });
    const record = s.deliver({ url: server.url, secret: SECRET }, successPayload());
    await settled(record);

    expect(record.outcome).toBe('delivered');
    expect(record.attempts.map((a) => a.status_code)).toEqual([500, 500, 200]);
    expect(server.requests).toHaveLength(3);
    const [a, b, c] = server.requests.map((r) => r.arrivedAt) as [number, number, number];
    const gaps = [b - a, c - b];
    // Timers never fire early, so the lower bounds hold on any machine; the upper ones are generous.
    expect(gaps[0]).toBeGreaterThanOrEqual(195);
    expect(gaps[1]).toBeGreaterThanOrEqual(395);
    expect(gaps[1]).toBeGreaterThan(gaps[0] ?? Infinity);
    expect(gaps[1]).toBeLessThan(400 + 5_000);
    expect(log.lines.filter((l) => l.startsWith('warn'))).toHaveLength(2);
    expect(log.lines.at(-1)).toMatch(/^info: .*delivered/);
  });

  it('gives up after 1 + 5 attempts when the receiver always answers 500', async () => {
    const server = await scripted(() => 500);
    // A real 5 s timeout, as above: a slow answer is still a 500, not a timeout.
    const { sender: s, log } = sender(0.01, { webhookTimeoutMs: 5_000 });
    const record = s.deliver({ url: server.url, secret: SECRET }, failurePayload());
    await settled(record);
    expect(record.outcome).toBe('failed');
    expect(record.attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 500, 500, 500]);
    expect(server.requests).toHaveLength(6);
    // Every attempt carries the same body (the receiver deduplicates on it).
    expect(new Set(server.requests.map((r) => r.body)).size).toBe(1);
    expect(log.lines.at(-1)).toMatch(/^error: .*gave up after 6 attempts/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.requests).toHaveLength(6);
  });

  it('counts a receiver that never answers as a timeout, and gives up after 1 + 5 attempts', async () => {
    const server = await scripted(() => 'hang');
    const { sender: s } = sender(0.01, { webhookTimeoutMs: 100 });
    const record = s.deliver({ url: server.url, secret: SECRET }, successPayload());
    await settled(record);
    expect(record.outcome).toBe('failed');
    expect(record.attempts).toHaveLength(6);
    for (const attempt of record.attempts) {
      expect(attempt.status_code).toBeUndefined();
      expect(attempt.error).toMatch(/^timeout/);
      expect(attempt.duration_ms).toBeGreaterThanOrEqual(95);
    }
    expect(server.requests).toHaveLength(6);
  });

  it('counts refused connections and unusable URLs as failed attempts, never throwing', async () => {
    const { sender: s } = sender(0.01);
    const refused = s.deliver({ url: await closedPortUrl(), secret: SECRET }, successPayload());
    const garbage = s.deliver({ url: 'not a url', secret: SECRET }, successPayload());
    await Promise.all([settled(refused), settled(garbage)]);
    for (const record of [refused, garbage]) {
      expect(record.outcome).toBe('failed');
      expect(record.attempts).toHaveLength(6);
      expect(record.attempts.every((a) => a.error?.startsWith('network error'))).toBe(true);
    }
    expect(refused.attempts[0]?.error).toContain('ECONNREFUSED');
  });

  it('close() cancels pending retries and in-flight attempts', async () => {
    const failing = await scripted(() => 500);
    const hanging = await scripted(() => 'hang');
    // Scale 1: the first retry would come after a real second, the timeout after 5 s.
    const log = quietLog();
    const s = createWebhookSender({ timing: testTiming(1), log });
    const waiting = s.deliver({ url: failing.url, secret: SECRET }, successPayload());
    const inFlight = s.deliver({ url: hanging.url, secret: SECRET }, failurePayload());
    await vi.waitFor(() => expect(waiting.attempts).toHaveLength(1), { timeout: 10_000, interval: 10 });
    await vi.waitFor(() => expect(hanging.requests).toHaveLength(1), { timeout: 10_000, interval: 10 });

    const started = Date.now();
    await s.close();
    expect(Date.now() - started).toBeLessThan(900);
    expect([waiting.outcome, inFlight.outcome]).toEqual(['failed', 'failed']);
    expect(inFlight.attempts).toHaveLength(0); // the cancelled attempt is not the receiver's fault
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(failing.requests).toHaveLength(1);
    expect(log.lines.filter((l) => l.includes('cancelled by close()'))).toHaveLength(2);

    const late = s.deliver({ url: failing.url, secret: SECRET }, successPayload('late'));
    expect(late.outcome).toBe('failed');
  });
});
