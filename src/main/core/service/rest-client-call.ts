import type { ZodType } from 'zod';
import { silentLogger, systemClock, type Clock, type Logger } from '../ports';
import {
  backoffDelay,
  DEFAULT_TIMEOUT_MS,
  errorFromReply,
  isRetryable,
  isSuccess,
  parseReply,
  pause,
  retryPolicy,
  sendRequest,
  type HttpMethod,
  type RetryPolicy,
} from './rest-client-transport';
import { ServiceCallError } from './service-error';
import type { ServiceCredentials, ServiceEndpoint, TokenSource } from './token-source';

/**
 * One authenticated call to the service: credentials as headers, a timeout, retries with backoff
 * for idempotent calls, and after a 401 one renewal of the token and one more try.
 */

/**
 * A TokenSource whose renew() may be told which token the service refused, so that callers that
 * got the same 401 share one re-login (the auth manager takes it; any TokenSource fits).
 */
export interface RenewingTokenSource {
  current: TokenSource['current'];
  renew(rejectedToken?: string): Promise<ServiceCredentials>;
}

export interface RestClientOptions {
  endpoint: ServiceEndpoint;
  tokens: RenewingTokenSource;
  clock?: Clock;
  log?: Logger;
  /** Per request; default 15 s. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface CallSpec<T> {
  /** A name for logs; paths may carry encounter ids, which stay out of logs. */
  operation: string;
  method: HttpMethod;
  /** Under /api/v1, ids encoded. */
  path: string;
  body?: unknown;
  schema: ZodType<T>;
  /** Safe to send again when an earlier try may or may not have reached the service. */
  idempotent: boolean;
  /**
   * After a try that may have reached the service, some refusals mean that try worked (create
   * with the client's id: 409; end: 400 already processing). Returns the result then.
   */
  doneAlready?: (error: ServiceCallError) => { result: T } | undefined;
}

export type ServiceCall = <T>(spec: CallSpec<T>, options?: CallOptions) => Promise<T>;

export function createServiceCall(options: RestClientOptions): ServiceCall {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLogger;
  const policy = retryPolicy(options.retry);
  const defaultTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  const headersFor = (credentials: ServiceCredentials): Record<string, string> => ({
    // protocol: Authentication (header sdp_service_token on every later call)
    sdp_service_token: credentials.serviceToken,
    // protocol: Authentication (Single Auth Token: sdp_provider_id on every REST call)
    ...(credentials.providerHeader ? { sdp_provider_id: credentials.providerHeader } : {}),
  });

  return async function call<T>(spec: CallSpec<T>, callOptions: CallOptions = {}): Promise<T> {
    const attempts = spec.idempotent ? policy.attempts : 1;
    let credentials = await options.tokens.current();
    let renewed = false;
    let mayHaveHappened = false;
    for (let attempt = 1; ; attempt += 1) {
      let failure: ServiceCallError;
      try {
        const reply = await sendRequest(options.endpoint, {
          method: spec.method,
          path: spec.path,
          ...(spec.body !== undefined ? { body: spec.body } : {}),
          headers: headersFor(credentials),
          timeoutMs: callOptions.timeoutMs ?? defaultTimeout,
          ...(callOptions.signal ? { signal: callOptions.signal } : {}),
        });
        if (isSuccess(reply)) return parseReply(spec.schema, reply, spec.operation);
        failure = errorFromReply(reply);
      } catch (error) {
        if (!(error instanceof ServiceCallError)) throw error;
        failure = error;
      }

      if (failure.status === 401 && !renewed) {
        // The token was refused: one re-login (shared by every caller refused the same token),
        // then one more try that does not count against the retry budget.
        renewed = true;
        log.info('service call refused the token; renewing it', { operation: spec.operation });
        credentials = await options.tokens.renew(credentials.serviceToken);
        attempt -= 1;
        continue;
      }
      if (mayHaveHappened && spec.doneAlready) {
        const done = spec.doneAlready(failure);
        if (done) {
          log.info('service call had already succeeded on an earlier try', { operation: spec.operation });
          return done.result;
        }
      }
      if (!isRetryable(failure) || attempt >= attempts) {
        log.warn('service call failed', {
          operation: spec.operation,
          status: failure.status,
          id: failure.id,
          attempts: attempt,
        });
        throw failure;
      }
      mayHaveHappened = true;
      const delayMs = backoffDelay(attempt, policy);
      log.info('service call failed; retrying', {
        operation: spec.operation,
        status: failure.status,
        id: failure.id,
        attempt,
        delayMs,
      });
      await pause(clock, delayMs, callOptions.signal);
    }
  };
}
