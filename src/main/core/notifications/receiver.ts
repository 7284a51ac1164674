import { notificationSchema, type Notification } from '../../../shared/service';
import { verifyNotificationSignature } from './signature';

/**
 * The partner side of notifications, free of any HTTP server so the desktop app can mount it
 * wherever it likes (receiver-server.ts is one such mount). Check order, first failure wins:
 *
 *   1. generated-at and X-API-Key present, generated-at a Unix-ms integer   else 401
 *   2. X-API-Key matches the HMAC of `{generated-at}.{raw body}`            else 401
 *   3. generated-at no older than maxAgeMs and not beyond maxClockSkewMs ahead  else 401
 *   4. body not empty (whitespace counts as empty)                          else 400
 *   5. body is JSON with status success or failure                          else 400
 *   6. payload matches the success or failure schema                        else 400
 *   7. session_id + status already processed (or being processed)           200, no second call
 *   8. onNotification resolves                                              200, else 500
 *
 * Authentication comes first so an unauthenticated caller learns nothing about what a valid body
 * looks like, and the clock check runs on signed values only (an attacker cannot probe it).
 */

export interface ReceiverOptions {
  /** The partner's webhook secret, shared with the service at onboarding. */
  secret: string;
  /** Wall clock (Unix ms). */
  now?: () => number;
  /** Oldest acceptable generated-at; 5 minutes by default. */
  maxAgeMs?: number;
  /** How far generated-at may lie in the future (clock skew between service and partner); 1 minute by default. */
  maxClockSkewMs?: number;
  /** How many session_id + status keys are remembered for deduplication; the oldest are forgotten first. */
  dedupCapacity?: number;
  /** Runs once per session_id + status. A throw or rejection answers 500, so the service retries. */
  onNotification: (notification: Notification) => void | Promise<void>;
}

export interface ReceiverRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

export interface ReceiverResponse {
  status: number;
  body: unknown;
}

export interface NotificationReceiver {
  /** Never throws. */
  handle(request: ReceiverRequest): Promise<ReceiverResponse>;
}

// protocol: Notifications (receiver: verify an age ≤ 5 minutes)
const MAX_AGE_MS = 5 * 60 * 1000;

type Outcome = 'processed' | Error;

export function createNotificationReceiver(options: ReceiverOptions): NotificationReceiver {
  const now = options.now ?? Date.now;
  const maxAgeMs = options.maxAgeMs ?? MAX_AGE_MS;
  const maxClockSkewMs = options.maxClockSkewMs ?? 60_000;
  const dedupCapacity = options.dedupCapacity ?? 10_000;
  /** Keys whose onNotification completed, oldest first (a Map keeps insertion order). */
  const processed = new Map<string, true>();
  /** Keys whose onNotification is still running: a retry arriving meanwhile waits for it instead. */
  const inFlight = new Map<string, Promise<Outcome>>();

  async function processOnce(key: string, notification: Notification): Promise<Outcome> {
    try {
      await options.onNotification(notification);
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
    processed.set(key, true);
    if (processed.size > dedupCapacity) processed.delete(processed.keys().next().value as string);
    return 'processed';
  }

  async function handle({ headers, rawBody }: ReceiverRequest): Promise<ReceiverResponse> {
    // protocol: Notifications (headers generated-at (Unix ms) and X-API-Key, else 401)
    const generatedAt = header(headers, 'generated-at');
    const signature = header(headers, 'x-api-key');
    if (generatedAt === undefined || signature === undefined) {
      return unauthorized('the generated-at and X-API-Key headers are required');
    }
    if (!/^\d{1,16}$/.test(generatedAt)) return unauthorized('generated-at must be Unix milliseconds');
    // protocol: Notifications (X-API-Key = HMAC-SHA-256 over `{generated-at}.{raw body}`, else 401)
    if (!verifyNotificationSignature(options.secret, generatedAt, rawBody, signature)) {
      return unauthorized('X-API-Key does not match the body and generated-at');
    }
    // protocol: Notifications (age ≤ 5 minutes, else 401; a future time beyond clock skew is refused
    // too, or a leaked signature could be stamped ahead and replayed for longer)
    const age = now() - Number(generatedAt);
    if (age > maxAgeMs) return unauthorized(`generated-at is ${Math.round(age / 1000)} s old`);
    if (-age > maxClockSkewMs)
      return unauthorized(`generated-at is ${Math.round(-age / 1000)} s in the future`);

    // protocol: Notifications (empty body → 400)
    if (rawBody.trim() === '') return badRequest('the body is empty');
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      return badRequest('the body is not valid JSON');
    }
    // protocol: Notifications (status success or failure → 200 after processing; anything else → 400)
    const status = isObject(body) ? body.status : undefined;
    if (status !== 'success' && status !== 'failure') {
      return badRequest(`status must be success or failure, got ${describe(status)}`);
    }
    const parsed = notificationSchema.safeParse(body);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
      return badRequest(`the ${status} payload is invalid: ${problems.join('; ')}`);
    }

    // protocol: Notifications (at least once: receivers deduplicate by session_id + status)
    const key = `${parsed.data.session_id}\u0000${parsed.data.status}`;
    if (processed.has(key)) return ok();
    let pending = inFlight.get(key);
    if (!pending) {
      pending = processOnce(key, parsed.data).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    const outcome = await pending;
    if (outcome !== 'processed') {
      return { status: 500, body: { code: 500, message: `internal_error: ${outcome.message}` } };
    }
    return ok();
  }

  return {
    async handle(request) {
      try {
        return await handle(request);
      } catch (error) {
        // Only a bug of ours gets here (handle checks every input); answer as the spec's 500.
        return { status: 500, body: { code: 500, message: `internal_error: ${String(error)}` } };
      }
    },
  };
}

/** Header names are case-insensitive; a repeated header is ambiguous and treated as absent. */
function header(headers: ReceiverRequest['headers'], name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    if (Array.isArray(value)) return value.length === 1 ? value[0]?.trim() : undefined;
    return value?.trim();
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'none';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

// protocol: Notifications (200: a receiving implementation may return a JSON object with a message)
const ok = (): ReceiverResponse => ({ status: 200, body: { message: 'ok' } });

// protocol: Notifications (errors are {code, message}; message starts with an id, as the service's do)
const unauthorized = (why: string): ReceiverResponse => ({
  status: 401,
  body: { code: 401, message: `invalid_signature: ${why}` },
});
const badRequest = (why: string): ReceiverResponse => ({
  status: 400,
  body: { code: 400, message: `invalid_request: ${why}` },
});
