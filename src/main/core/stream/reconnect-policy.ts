/** What the client does after a connection ends or an upgrade is refused. */
export type Verdict =
  | {
      action: 'retry';
      reason: string;
      /** Log in again before the next attempt (4001, or a first 401 refusal). */
      renewToken?: boolean;
      /** Retry at once rather than after a backoff delay (a routine token renewal). */
      immediate?: boolean;
    }
  | {
      action: 'stop';
      reason: string;
      /** The service refused what we sent: a bug in this client, worth an error log. */
      clientBug?: boolean;
    };

export interface ReconnectOptions {
  /** Delay before the first retry; doubles with each failed attempt. */
  firstDelayMs: number;
  /** The cap of the doubling (a service that stays away is tried this often). */
  maxDelayMs: number;
  /** Failed attempts in a row before the link reports 'offline' (it keeps retrying). */
  offlineAfterAttempts: number;
}

export const DEFAULT_RECONNECT: ReconnectOptions = {
  firstDelayMs: 250,
  maxDelayMs: 10_000,
  offlineAfterAttempts: 4,
};

/**
 * A server close of the current connection, when we had not asked to close it.
 * protocol: Audio stream (server closes) and "Sandbox: the stream in detail".
 */
export function verdictForClose(code: number, reason: string): Verdict {
  const detail = reason ? `: ${reason}` : '';
  switch (code) {
    case 1000:
      // Normal close we did not ask for: the session was ended while the stream was open.
      return { action: 'stop', reason: `service closed the stream${detail}` };
    case 1002:
    case 1003:
    case 1007:
    case 1008:
    case 1009:
    case 1010:
      // Retrying would send the same frames again and fail the same way.
      return { action: 'stop', reason: `service refused our messages (${code}${detail})`, clientBug: true };
    case 4000:
      // Only ever seen on the current connection: someone else's newer connection took the
      // session (our own older sockets are ignored before they get here).
      return { action: 'retry', reason: 'replaced by another connection' };
    case 4001:
      return { action: 'retry', reason: 'token expired', renewToken: true, immediate: true };
    case 4008:
      return { action: 'retry', reason: `service timed out the stream${detail}` };
    case 4009:
      // The recorder decides what follows a 30-minute pause (end, or connect again).
      return { action: 'stop', reason: 'pause limit' };
    case 1006:
      return { action: 'retry', reason: 'connection lost' };
    default:
      // 1001 going away, 1005, 1011 server error, 1012 restart, 1013 try later, unknown codes.
      return { action: 'retry', reason: `connection closed (${code}${detail})` };
  }
}

/**
 * An upgrade the service answered with an HTTP status instead of 101.
 * protocol: Sandbox: the stream in detail (401 token, 400 headers, 404 unknown, 409 ended).
 */
export function verdictForRefusal(status: number, renewedAlready: boolean): Verdict {
  if (status === 401) {
    return renewedAlready
      ? { action: 'stop', reason: 'service refused the sign-in (HTTP 401)' }
      : { action: 'retry', reason: 'sign-in refused (HTTP 401)', renewToken: true, immediate: true };
  }
  if (status === 404) return { action: 'stop', reason: 'session not found (HTTP 404)' };
  if (status === 409) return { action: 'stop', reason: 'session ended or cancelled (HTTP 409)' };
  if (status >= 500 || status === 408 || status === 429) {
    return { action: 'retry', reason: `service unavailable (HTTP ${status})` };
  }
  // 400 (headers) and anything else in 4xx: the same request would be refused again.
  return {
    action: 'stop',
    reason: `service refused the connection (HTTP ${status})`,
    clientBug: status === 400,
  };
}

/** Capped exponential backoff with equal jitter: half the delay fixed, half random. */
export function backoffDelay(failures: number, options: ReconnectOptions, random: () => number): number {
  const base = Math.min(options.maxDelayMs, options.firstDelayMs * 2 ** Math.min(failures, 30));
  return Math.round(base / 2 + (random() * base) / 2);
}
