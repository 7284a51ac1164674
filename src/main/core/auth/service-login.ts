import { loginResponseSchema, type LoginRequest, type RegisterRequest } from '../../../shared/service';
import type { Clock, Logger } from '../ports';
import {
  backoffDelay,
  errorFromReply,
  isRetryable,
  isSuccess,
  parseReply,
  pause,
  sendRequest,
  type HttpReply,
  type RetryPolicy,
} from '../service/rest-client-transport';
import { ServiceCallError } from '../service/service-error';
import type { ServiceEndpoint } from '../service/token-source';
import { authError } from './auth-errors';

/**
 * Login and Register (spec "Authentication"): Login; when the service answers 401
 * provider_not_registered, Register once (409 counts as done) and Login again, without asking the
 * user. Both are safe to repeat, so network errors and 5xx are retried with backoff.
 */

export interface LoginTransport {
  endpoint: ServiceEndpoint;
  timeoutMs: number;
  retry: RetryPolicy;
  clock: Clock;
  log: Logger;
}

/** What Register needs beyond the login fields; missing values make Register impossible. */
export interface RegisterProfile {
  name?: string | undefined;
  orgId?: string | undefined;
  specialty?: string | undefined;
}

export interface LoginResult {
  serviceToken: string;
  lifetimeMs: number;
  registered: boolean;
}

// protocol: Authentication (token lifetime 1 hour when expires_in is absent)
const DEFAULT_LIFETIME_MS = 60 * 60 * 1000;

/**
 * Headers Login and Register carry besides the body: for Single Auth Token partners,
 * sdp_provider_id (the same provider_id as in the body).
 */
export type LoginHeaders = Record<string, string>;

async function postWithRetries(
  transport: LoginTransport,
  path: string,
  body: object,
  headers: LoginHeaders,
): Promise<HttpReply> {
  for (let attempt = 1; ; attempt += 1) {
    let failure: ServiceCallError;
    try {
      // protocol: Authentication (HTTPS POST, JSON body; credentials never in the query string)
      const reply = await sendRequest(transport.endpoint, {
        method: 'POST',
        path,
        body,
        headers,
        timeoutMs: transport.timeoutMs,
      });
      if (isSuccess(reply) || !(reply.status >= 500)) return reply;
      failure = errorFromReply(reply);
    } catch (error) {
      failure = error as ServiceCallError;
    }
    if (!isRetryable(failure) || attempt >= transport.retry.attempts) throw failure;
    const delayMs = backoffDelay(attempt, transport.retry);
    transport.log.info('auth: service call failed; retrying', { path, id: failure.id, attempt, delayMs });
    await pause(transport.clock, delayMs);
  }
}

async function login(
  transport: LoginTransport,
  request: LoginRequest,
  headers: LoginHeaders,
): Promise<LoginResult | ServiceCallError> {
  const reply = await postWithRetries(transport, '/auth/login', request, headers);
  if (!isSuccess(reply)) return errorFromReply(reply);
  // protocol: Authentication (200 {"service_token", "expires_in"})
  const answer = parseReply(loginResponseSchema, reply, 'login');
  const lifetimeMs = answer.expires_in !== undefined ? answer.expires_in * 1000 : DEFAULT_LIFETIME_MS;
  return { serviceToken: answer.service_token, lifetimeMs, registered: false };
}

async function register(
  transport: LoginTransport,
  request: RegisterRequest,
  headers: LoginHeaders,
): Promise<void> {
  const reply = await postWithRetries(transport, '/auth/register', request, headers);
  // protocol: Authentication (Register: 201 new or newly linked, 409 already linked = success)
  if (isSuccess(reply)) return;
  if (reply.status === 409) {
    // Another device of the same clinician registered in between: that is what we wanted.
    transport.log.info('auth: provider was already registered', {});
    return;
  }
  throw errorFromReply(reply);
}

export async function loginRegisteringOnce(
  transport: LoginTransport,
  request: LoginRequest,
  profile: () => RegisterProfile,
  headers: LoginHeaders = {},
): Promise<LoginResult> {
  const first = await login(transport, request, headers);
  if (!(first instanceof ServiceCallError)) return first;
  // protocol: Authentication (unregistered → 401 provider_not_registered; Register once, Login again)
  if (first.status !== 401 || first.id !== 'provider_not_registered') throw first;

  const { name, orgId, specialty } = profile();
  if (!name || !orgId) throw authError('profile_incomplete');
  transport.log.info('auth: provider not registered yet; registering', {});
  await register(
    transport,
    {
      ...request,
      provider_name: name,
      provider_org_id: orgId,
      ...(specialty ? { provider_specialty: specialty } : {}),
    },
    headers,
  );
  const second = await login(transport, request, headers);
  if (second instanceof ServiceCallError) throw second;
  return { ...second, registered: true };
}
