import { createHmac, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { NOTIFICATION_EVENT, type Notification } from '../../src/shared/service';
import { SERVICE_COUNTS, type Timing } from '../limits';

// protocol: Notifications (X-API-Key = lowercase hex HMAC-SHA-256 over `{generated-at}.{raw body}`)
// The service's side of the signature; the app checks it with its own code
// (src/main/core/notifications/signature.ts), so one cannot hide a mistake in the other.
function signNotification(secret: string, generatedAt: string, rawBody: string): string {
  return createHmac('sha256', secret).update(`${generatedAt}.${rawBody}`, 'utf8').digest('hex');
}

/**
 * The service side of notifications: POST each payload to the partner's notification URL, signed,
 * and retry until a 2xx or the retries run out. Delivery runs in the background; the caller gets a
 * live record that the sandbox's test control API can serve as it is (it holds no secret).
 */

export interface DeliveryAttempt {
  /** When the attempt started (ISO 8601). */
  at: string;
  /** The HTTP status, when the receiver answered at all. */
  status_code?: number;
  /** Why the attempt failed without a status: timeout, refused connection, ... */
  error?: string;
  duration_ms: number;
}

export interface DeliveryRecord {
  id: string;
  url: string;
  session_id: string;
  /** The payload's status (success | failure), not the delivery's. */
  status: Notification['status'];
  outcome: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
}

export interface WebhookTarget {
  url: string;
  secret: string;
}

/** The sandbox's log shape: a message plus structured fields (never the secret). */
export interface WebhookLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface WebhookSenderOptions {
  timing: Timing;
  log: WebhookLog;
  /** Wall clock for generated-at and attempt times (Unix ms). */
  now?: () => number;
  fetch?: typeof fetch;
  /** Records kept for deliveries(); the oldest finished ones are dropped beyond this. */
  maxRecords?: number;
}

export interface WebhookSender {
  /** Starts a delivery in the background and returns its live record at once. Never throws. */
  deliver(target: WebhookTarget, payload: Notification): DeliveryRecord;
  deliveries(): DeliveryRecord[];
  /** Cancels pending retries and in-flight attempts; still-pending records end as failed. */
  close(): Promise<void>;
}

const CANCELLED = 'cancelled: the webhook sender was closed';

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const { timing, log } = options;
  const now = options.now ?? Date.now;
  const doFetch = options.fetch ?? fetch;
  const maxRecords = options.maxRecords ?? 1000;
  const records: DeliveryRecord[] = [];
  const running = new Set<Promise<void>>();
  /** Aborts every in-flight attempt and wakes every backoff sleep when close() is called. */
  const shutdown = new AbortController();

  function remember(record: DeliveryRecord): void {
    records.push(record);
    while (records.length > maxRecords) {
      const finished = records.findIndex((r) => r.outcome !== 'pending');
      records.splice(finished === -1 ? 0 : finished, 1);
    }
  }

  async function attempt(target: WebhookTarget, rawBody: string): Promise<DeliveryAttempt> {
    const started = performance.now();
    const result: DeliveryAttempt = { at: new Date(now()).toISOString(), duration_ms: 0 };
    const timeoutMs = timing.ms('webhookTimeoutMs');
    // One controller per attempt, aborted by its own timeout or by close(); both are undone below so
    // nothing lingers after a quick answer.
    const controller = new AbortController();
    let timedOut = false;
    // protocol: Notifications (an attempt without an answer within 5 s is a timeout, and retried)
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onShutdown = () => controller.abort();
    shutdown.signal.addEventListener('abort', onShutdown, { once: true });
    // protocol: Notifications (each attempt is signed afresh, so generated-at stays within the
    // receiver's 5-minute window however long the retries take; the body is identical every time)
    const generatedAt = String(now());
    try {
      const response = await doFetch(target.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          // protocol: Notifications (event name in header x-event-name)
          'x-event-name': NOTIFICATION_EVENT,
          'generated-at': generatedAt,
          'X-API-Key': signNotification(target.secret, generatedAt, rawBody),
        },
        body: rawBody,
        // A redirect would carry the signed body elsewhere; a 3xx is just a non-2xx here.
        redirect: 'manual',
        signal: controller.signal,
      });
      result.status_code = response.status;
      // The answer's body is irrelevant; cancelling it frees the connection without reading it.
      await response.body?.cancel().catch(() => undefined);
    } catch (error) {
      if (shutdown.signal.aborted) result.error = CANCELLED;
      else if (timedOut) result.error = `timeout: no answer within ${Math.round(timeoutMs)} ms`;
      else result.error = describeNetworkError(error);
    } finally {
      clearTimeout(timer);
      shutdown.signal.removeEventListener('abort', onShutdown);
    }
    result.duration_ms = Math.round(performance.now() - started);
    return result;
  }

  async function run(record: DeliveryRecord, target: WebhookTarget, rawBody: string): Promise<void> {
    // protocol: Notifications (up to 5 retries). A count, not a duration, so never time-scaled.
    const maxRetries = SERVICE_COUNTS.webhookMaxRetries;
    for (let n = 0; n <= maxRetries; n++) {
      if (n > 0) {
        // protocol: Notifications (exponential backoff from 1 s: 1, 2, 4, 8, 16 s, time-scaled)
        const delay = timing.ms('webhookFirstBackoffMs') * 2 ** (n - 1);
        if (!(await sleep(delay, shutdown.signal))) break;
      }
      const result = await attempt(target, rawBody);
      if (result.error === CANCELLED) break;
      record.attempts.push(result);
      const code = result.status_code;
      // protocol: Notifications (at least once: anything but a 2xx, and timeouts, are retried)
      if (code !== undefined && code >= 200 && code < 300) {
        record.outcome = 'delivered';
        log.info(`webhook delivered (attempt ${n + 1}, HTTP ${code})`, fields(record, { attempt: n + 1 }));
        return;
      }
      const why = code === undefined ? result.error : `HTTP ${code}`;
      log.warn(`webhook attempt ${n + 1} failed: ${why}`, fields(record, { attempt: n + 1 }));
    }
    record.outcome = 'failed';
    const why = shutdown.signal.aborted
      ? 'cancelled by close()'
      : `gave up after ${record.attempts.length} attempts`;
    log.error(`webhook not delivered: ${why}`, fields(record));
  }

  return {
    deliver(target, payload) {
      const record: DeliveryRecord = {
        id: randomUUID(),
        url: target.url,
        session_id: payload.session_id,
        status: payload.status,
        outcome: 'pending',
        attempts: [],
      };
      remember(record);
      if (shutdown.signal.aborted) {
        record.outcome = 'failed';
        log.error('webhook not sent: the webhook sender was closed', fields(record));
        return record;
      }
      let task: Promise<void>;
      try {
        task = run(record, target, JSON.stringify(payload));
      } catch (error) {
        task = Promise.reject(error);
      }
      const tracked = task
        .catch((error: unknown) => {
          // Only a bug of ours gets here; the caller must still never see it.
          record.outcome = 'failed';
          log.error(`webhook failed unexpectedly: ${String(error)}`, fields(record));
        })
        .finally(() => running.delete(tracked));
      running.add(tracked);
      return record;
    },
    deliveries: () => [...records],
    async close() {
      shutdown.abort();
      await Promise.all([...running]);
    },
  };
}

/** What a log line about a delivery carries: enough to find it in deliveries(), never the secret. */
function fields(record: DeliveryRecord, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    delivery: record.id,
    session_id: record.session_id,
    status: record.status,
    url: record.url,
    ...extra,
  };
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** undici hides the useful part (ECONNREFUSED, ...) in `cause`. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return `network error: ${String(error)}`;
  const cause = (error as Error & { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return `network error: ${typeof code === 'string' ? `${code} ` : ''}${cause.message}`.trim();
  }
  return `network error: ${error.message}`;
}
