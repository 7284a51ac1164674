import type { Clock, Logger } from '../ports';
import type { Connection } from './connection';
import type { Outgoing } from './outgoing';

export interface ConnectionWatchOptions {
  clock: Clock;
  log: Logger;
  sessionId: string;
  out: Outgoing;
  /** A ping unanswered this long means a dead connection. */
  livenessTimeoutMs: number;
  /** Audio unacknowledged this long (a service with ACK), or no close this long after EOF. */
  stallTimeoutMs: number;
}

/**
 * A half-open TCP connection or a hung service looks healthy until something times out: this is
 * that check, run on the current connection every so often. A ping unanswered for the liveness
 * bound drops the connection (the reconnect resumes from what was proven), unless no pong has
 * ever come: then the service answers none (outside RFC 6455) and the client stops asking.
 */
export function createConnectionWatch(options: ConnectionWatchOptions): (connection: Connection) => void {
  const { clock, log, sessionId, out, livenessTimeoutMs, stallTimeoutMs } = options;
  return (connection) => {
    const now = clock.now();
    const oldestPing = connection.pings[0];
    if (oldestPing && now - oldestPing.at > livenessTimeoutMs) {
      if (out.pongsAnswered === undefined) {
        log.warn('stream: the service answers no ping; liveness and proof of receipt are unavailable', {
          sessionId,
        });
        connection.pings.length = 0;
        return out.noPongs();
      }
      log.warn('stream: no pong for too long; reconnecting', {
        sessionId,
        waitedMs: now - oldestPing.at,
        proven: out.proven,
        sent: out.sent,
      });
      return connection.socket.terminate();
    }
    const since = connection.waitingSince;
    if (since !== undefined && now - since > stallTimeoutMs) {
      log.warn('stream: no ACK or close for too long; reconnecting', {
        sessionId,
        acked: out.acked,
        sent: out.sent,
      });
      connection.socket.terminate();
    }
  };
}
