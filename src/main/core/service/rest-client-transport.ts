import type { ZodType } from 'zod';
import type { Clock } from '../ports';
import { ServiceCallError, sentenceFor } from './service-error';
import { restUrl, type ServiceEndpoint } from './token-source';

/**
 * One HTTP exchange with the service and the rules around it, shared by the REST client and the
 * auth manager's Login/Register: a timeout on every request, errors as ServiceCallError, response
 * bodies checked against the shared wire schemas, and capped exponential backoff for retries.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH';

export interface HttpRequest {
  method: HttpMethod;
  /** Path under /api/v1, ids already encoded. Never carries credentials (spec: not in query strings). */
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  timeoutMs: number;
  /** The caller's own cancel; a cancelled call is never retried. */
  signal?: AbortSignal;
}

export interface HttpReply {
  status: number;
  body: unknown;
}

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 300, maxDelayMs: 5_000 };

/** Sends one request. Resolves with any HTTP answer; rejects only when there is none. */
export async function sendRequest(endpoint: ServiceEndpoint, request: HttpRequest): Promise<HttpReply> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
  const hasBody = request.body !== undefined;
  try {
    const response = await fetch(restUrl(endpoint, request.path), {
      method: request.method,
      headers: {
        accept: 'application/json',
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
        ...request.headers,
      },
      ...(hasBody ? { body: JSON.stringify(request.body) } : {}),
      signal,
    });
    const text = await response.text();
    return { status: response.status, body: parseJson(text) };
  } catch (error) {
    if (timeout.aborted) {
      throw new ServiceCallError(
        0,
        'timeout',
        sentenceFor(0, 'timeout'),
        `no answer within ${request.timeoutMs} ms`,
      );
    }
    if (request.signal?.aborted) throw cancelledError();
    // fetch says "fetch failed" and puts the reason (ECONNREFUSED, ENOTFOUND...) in cause.
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const code = typeof cause?.code === 'string' ? cause.code : (error as Error).name;
    throw new ServiceCallError(0, 'unreachable', sentenceFor(0, 'unreachable'), code);
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A proxy's HTML error page: the status still says what happened.
    return undefined;
  }
}

export function cancelledError(): ServiceCallError {
  return new ServiceCallError(0, 'cancelled', 'The request was cancelled.');
}

export function isSuccess(reply: HttpReply): boolean {
  return reply.status >= 200 && reply.status < 300;
}

/** The service's error body as a ServiceCallError (id from the message, sentence for people). */
export function errorFromReply(reply: HttpReply): ServiceCallError {
  const error = ServiceCallError.fromBody(reply.status, reply.body);
  const sentence = extraSentence(error.id);
  return sentence ? new ServiceCallError(error.status, error.id, sentence, error.serviceMessage) : error;
}

/** Sentences for ids that service-error.ts does not know yet (docs/protocol.md, project additions). */
function extraSentence(id: string): string | undefined {
  switch (id) {
    // protocol: Sandbox: more error ids and statuses (409 not_ready before completion)
    case 'not_ready':
      return 'The note is not ready yet. The app keeps checking.';
    // protocol: Sandbox: more error ids and statuses (409 session_conflict)
    case 'session_conflict':
      return 'The service already has a recording with this ID, or it has ended.';
    default:
      return undefined;
  }
}

/** Checks a success body against the shared schema; extra fields are dropped, not refused. */
export function parseReply<T>(schema: ZodType<T>, reply: HttpReply, what: string): T {
  const parsed = schema.safeParse(reply.body);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(body)'} ${issue.message}`)
    .join('; ');
  return invalidResponse(reply.status, `${what}: ${where}`);
}

function invalidResponse(status: number, detail: string): never {
  throw new ServiceCallError(
    status,
    'invalid_response',
    'The documentation service sent an answer the app does not understand. Ask your IT admin to check the service version.',
    detail,
  );
}

/** No answer (unreachable, timeout) or a server error: worth another try for an idempotent call. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ServiceCallError)) return false;
  if (error.status === 0) return error.id === 'unreachable' || error.id === 'timeout';
  return error.status >= 500;
}

/** Capped exponential backoff with a little jitter, so many clients do not retry in step. */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential * (0.8 + 0.4 * random()));
}

/** Waits on the clock; a cancelled signal ends the wait with the cancelled error. */
export function pause(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelledError());
    const onAbort = () => {
      stop();
      reject(cancelledError());
    };
    const stop = clock.after(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function retryPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy {
  return { ...DEFAULT_RETRY, ...overrides };
}
