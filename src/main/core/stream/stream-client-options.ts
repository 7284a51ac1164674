import type { Clock, Logger } from '../ports';
import type { ServiceEndpoint, TokenSource } from '../service/token-source';
import type { AudioLog } from './audio-log';
import type { ReconnectOptions } from './reconnect-policy';
import type { StreamLinkChange, StreamPort } from './stream-port';

export interface StreamClientOptions {
  endpoint: ServiceEndpoint;
  sessionId: string;
  tokens: TokenSource;
  clock: Clock;
  log: Logger;
  /** A backlog drains at up to this × real time (default 4, the service's cap). */
  maxDrainFactor?: number;
  /** Backoff of reconnects (defaults: 250 ms doubling to 10 s; 'offline' after 4 failed attempts). */
  reconnect?: Partial<ReconnectOptions>;
  /** Where appended audio lives until the service has it (default: in memory). */
  audioLog?: AudioLog;
  /** Use the ACK extension when the service offers it (default true; false acts as if it did not). */
  useAck?: boolean;
  /** How long after an upgrade to wait for the first ACK before concluding the service sends none (1 s). */
  firstAckWaitMs?: number;
  /** Audio unacknowledged this long, or no close this long after EOF, means a dead connection (15 s). */
  stallTimeoutMs?: number;
  /**
   * A ping unanswered this long means the connection is dead (5 s): it is dropped and replaced,
   * resuming from what the service proved it has.
   */
  livenessTimeoutMs?: number;
  /** An upgrade that takes longer counts as a failed attempt (10 s). */
  connectTimeoutMs?: number;
  /** How long abort() and cancel() wait for the service's close before dropping the socket (5 s). */
  closeTimeoutMs?: number;
  /** For the backoff jitter (tests make it deterministic). */
  random?: () => number;
}

export interface StreamClient extends StreamPort {
  /** The latest link change (before connect(): closed, "not connected"). */
  readonly link: StreamLinkChange;
  readonly audioLog: AudioLog;
  /**
   * The computer woke from sleep (or its network changed): the socket may be dead without knowing
   * it, and a retry may be waiting out a long backoff. Starts a fresh connection now; it resumes
   * from the service's resume point, so nothing is lost or sent twice. Only while streaming or
   * finishing.
   */
  reconnectNow(): void;
  /** Stops every timer and drops the socket without telling the service (app quit, tests). */
  dispose(): void;
}

/** A promise settled from outside, never reported as unhandled (only awaiting callers see it). */
export interface Settler {
  promise: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

export function settler(): Settler {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
