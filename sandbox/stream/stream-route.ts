import type { FastifyInstance } from 'fastify';
import { authenticate, type Caller } from '../auth/authenticate';
import type { ServiceTokens } from '../auth/service-tokens';
import { ServiceError } from '../errors';
import type { Timing } from '../limits';
import type { Partner } from '../partners';
import { OPEN_STATUSES, type SessionRecord } from '../sessions/session-record';
import type { SessionStore } from '../sessions/session-store';
import { CLOSE } from './close-codes';
import { runStreamConnection, type StreamConnection } from './stream-connection';

export interface StreamHub {
  /** The open stream of a session, if any. */
  active(sessionId: string): StreamConnection | undefined;
  all(): StreamConnection[];
  /** Makes the next new stream connection drop right after it opens (fault injection). */
  dropNext(count?: number): void;
  /** Makes the next new stream connection stall and then reset (fault injection). */
  stallNext(ms: number): void;
  /**
   * Every token issued before `at` has just expired (fault injection): streams opened with one are
   * closed with 4001 now, also one whose upgrade was checked a moment before.
   */
  expireTokensIssuedBefore(at: number): void;
}

interface StreamRouteDeps {
  store: SessionStore;
  tokens: ServiceTokens;
  partners: ReadonlyMap<string, Partner>;
  timing: Timing;
  /** Send the ACK extension (default true). */
  ack?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    streamBinding?: { caller: Caller; session: SessionRecord };
  }
}

// protocol: Hosts and paths (WebSocket: {ws_base}/ws/stream)
export const STREAM_PATH = '/ws/stream';

/**
 * The audio WebSocket. Bound to a session by upgrade headers (docs/protocol.md "Audio stream"):
 * sdp_service_token, ambient_session_id, and sdp_provider_id for Single Auth Token partners. A
 * refused upgrade gets an HTTP status: 401 bad token, 404 unknown session, 409 ended session.
 */
export function registerStreamRoute(app: FastifyInstance, deps: StreamRouteDeps): StreamHub {
  const connections = new Map<string, { connection: StreamConnection; tokenIssuedAt: number }>();
  let dropsPending = 0;
  let stallPendingMs: number | undefined;
  let tokensExpiredBefore = 0;

  app.get(
    STREAM_PATH,
    {
      websocket: true,
      preValidation: async (request) => {
        const caller = await authenticate(request.headers, deps.tokens, deps.partners);
        const id = request.headers['ambient_session_id'];
        if (typeof id !== 'string' || id === '') {
          throw new ServiceError(400, 'invalid_request', 'ambient_session_id header is required');
        }
        const session = deps.store.get(id);
        if (
          !session ||
          session.partnerId !== caller.partner.partner_id ||
          session.providerId !== caller.providerId
        ) {
          throw new ServiceError(404, 'session_not_found', 'no such session for this provider');
        }
        if (!OPEN_STATUSES.includes(session.status)) {
          throw new ServiceError(
            409,
            'session_conflict',
            `the session is ${session.status}; it takes no more audio`,
          );
        }
        request.streamBinding = { caller, session };
      },
    },
    (socket, request) => {
      const binding = request.streamBinding;
      if (!binding) return socket.close(1011, 'unbound');
      const { session, caller } = binding;
      // A reconnect wins over a socket the service has not yet seen die (half-open TCP).
      connections.get(session.id)?.connection.close(CLOSE.replaced, 'replaced by a newer connection');
      const connection = runStreamConnection(
        socket,
        request.raw.socket,
        session,
        caller.tokenExpiresAt,
        deps,
      );
      connections.set(session.id, { connection, tokenIssuedAt: caller.tokenIssuedAt });
      void connection.closed.then(() => {
        if (connections.get(session.id)?.connection === connection) connections.delete(session.id);
      });
      if (dropsPending > 0) {
        dropsPending -= 1;
        connection.drop();
      } else if (stallPendingMs !== undefined) {
        connection.stallThenReset(stallPendingMs);
        stallPendingMs = undefined;
      } else if (caller.tokenIssuedAt < tokensExpiredBefore) {
        connection.expireToken();
      }
    },
  );

  return {
    active: (id) => connections.get(id)?.connection,
    all: () => [...connections.values()].map((open) => open.connection),
    dropNext: (count = 1) => {
      dropsPending += count;
    },
    stallNext: (ms) => {
      stallPendingMs = ms;
    },
    expireTokensIssuedBefore: (at) => {
      tokensExpiredBefore = Math.max(tokensExpiredBefore, at);
      for (const open of [...connections.values()]) {
        if (open.tokenIssuedAt < at) open.connection.expireToken();
      }
    },
  };
}
