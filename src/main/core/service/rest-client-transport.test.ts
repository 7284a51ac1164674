import { describe, expect, it } from 'vitest';
import { contentResponseSchema, statusResponseSchema } from '../../../shared/service';
import { backoffDelay, errorFromReply, isRetryable, parseReply } from './rest-client-transport';
import { ServiceCallError } from './service-error';

/** The rules every service call follows, on answers shaped like the service's. */
describe('checking answers against the wire schemas', () => {
  it('ignores fields it does not know and takes status values it does not know', () => {
    const content = parseReply(
      contentResponseSchema,
      { status: 200, body: { summary: [{ title: 'Plan', content: 'Rest.', extra: 1 }], model: 'v2' } },
      'content',
    );
    expect(content).toEqual({ summary: [{ title: 'Plan', content: 'Rest.' }] });
    expect(parseReply(statusResponseSchema, { status: 200, body: { status: 'queued' } }, 'status')).toEqual({
      status: 'queued',
    });
  });

  it('refuses an answer missing what the app needs, with a sentence and where it was wrong', () => {
    const error = (() => {
      try {
        parseReply(contentResponseSchema, { status: 200, body: { summary: [{ title: 'Plan' }] } }, 'content');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ServiceCallError);
    expect(error).toMatchObject({ status: 200, id: 'invalid_response' });
    expect((error as ServiceCallError).serviceMessage).toMatch(/^content: summary\.0\.content/);
  });
});

describe('errors', () => {
  it('takes the id from the service message and adds a sentence for the project’s own ids', () => {
    const error = errorFromReply({
      status: 409,
      body: { code: 409, message: 'not_ready: still processing' },
    });
    expect(error).toMatchObject({
      status: 409,
      id: 'not_ready',
      serviceMessage: 'not_ready: still processing',
    });
    expect(error.sentence).toMatch(/not ready/);
  });

  it('handles a body that is not the service’s (a proxy page)', () => {
    const error = errorFromReply({ status: 502, body: undefined });
    expect(error).toMatchObject({ status: 502, id: 'http_502' });
    expect(isRetryable(error)).toBe(true);
  });

  it('retries only what had no answer or a server error', () => {
    expect(isRetryable(new ServiceCallError(0, 'timeout', ''))).toBe(true);
    expect(isRetryable(new ServiceCallError(0, 'unreachable', ''))).toBe(true);
    expect(isRetryable(new ServiceCallError(0, 'cancelled', ''))).toBe(false);
    expect(isRetryable(new ServiceCallError(503, 'http_503', ''))).toBe(true);
    expect(isRetryable(new ServiceCallError(400, 'invalid_request', ''))).toBe(false);
    expect(isRetryable(new ServiceCallError(401, 'invalid_sdp_token', ''))).toBe(false);
  });
});

describe('backoff', () => {
  it('doubles from the base and stops at the cap, with ±20 % jitter', () => {
    const policy = { attempts: 8, baseDelayMs: 100, maxDelayMs: 1_000 };
    const middle = (attempt: number) => backoffDelay(attempt, policy, () => 0.5);
    expect([1, 2, 3, 4, 5, 6].map(middle)).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(backoffDelay(1, policy, () => 0)).toBe(80);
    expect(backoffDelay(1, policy, () => 1)).toBe(120);
  });
});
