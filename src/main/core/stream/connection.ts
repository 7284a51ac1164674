import type { Clock } from '../ports';
import type { ServiceCredentials } from '../service/token-source';
import type { Wire } from './outgoing';
import { openStreamSocket, type SocketEnd } from './stream-socket';

/** One connection attempt and what the client tracks about it. */
export interface Connection extends Wire {
  /** The resume point is known (first ACK, or the written offset without ACK): audio may flow. */
  resumed: boolean;
  openedAt: number;
  /** The service acknowledged or proved (or, from a service that answers nothing, the socket wrote) audio here. */
  progress: boolean;
  /** Pings not yet answered, oldest first: the offset each named and when it went out. */
  pings: { offset: number; at: number }[];
  eofSent: boolean;
  cancelSent: boolean;
  /** Since when audio sent here waits for an ACK, or the close after EOF is awaited. */
  waitingSince?: number;
  /** Stops for this connection's timers, run when it ends. */
  timers: (() => void)[];
}

export interface ConnectionDeps {
  url: string;
  sessionId: string;
  credentials: ServiceCredentials;
  clock: Clock;
  connectTimeoutMs: number;
  /** Only the current connection's events count. */
  isCurrent(connection: Connection): boolean;
  /** Whether the service is known to send ACKs (the stall timer only runs on ACK services). */
  ackSupported(): boolean | undefined;
  /** Written bytes count as the service's (a service that answers neither ACK nor ping). */
  proofByWrites(): boolean;
  onOpen(connection: Connection): void;
  onAck(connection: Connection, receivedBytes: number): void;
  /** The service answered one of this connection's pings: it read everything before `offset`. */
  onPong(connection: Connection, offset: number): void;
  onEnd(connection: Connection, end: SocketEnd): void;
  /** A frame was written: room for more. */
  onWritten(): void;
  onUnreadable(error: unknown): void;
}

/**
 * Opens a socket bound to the session. Events of a socket that is no longer the current one (ours,
 * replaced or abandoned) are dropped here, which is how our own 4000 "replaced" is told apart from
 * someone else's.
 */
export function openConnection(deps: ConnectionDeps): Connection {
  const { clock } = deps;
  // protocol: Audio stream (binding: upgrade headers; sdp_provider_id for Single Auth Token)
  const headers: Record<string, string> = {
    sdp_service_token: deps.credentials.serviceToken,
    ambient_session_id: deps.sessionId,
    ...(deps.credentials.providerHeader ? { sdp_provider_id: deps.credentials.providerHeader } : {}),
  };
  const self: { connection?: Connection } = {};
  const live = () => self.connection !== undefined && deps.isCurrent(self.connection);
  const socket = openStreamSocket(
    { url: deps.url, headers, clock, connectTimeoutMs: deps.connectTimeoutMs },
    {
      onOpen: () => live() && deps.onOpen(self.connection as Connection),
      onAck: (n) => live() && deps.onAck(self.connection as Connection, n),
      onPong: (offset) => {
        const connection = self.connection as Connection;
        if (!live()) return;
        // Only an answer to a ping of ours counts, and it answers every ping before it too.
        const index = connection.pings.findIndex((p) => p.offset === offset);
        if (index < 0) return;
        connection.pings.splice(0, index + 1);
        deps.onPong(connection, offset);
      },
      onEnd: (end) => live() && deps.onEnd(self.connection as Connection, end),
    },
  );
  const connection: Connection = {
    socket,
    live,
    resumed: false,
    openedAt: 0,
    progress: false,
    pings: [],
    eofSent: false,
    cancelSent: false,
    timers: [],
    onAudioSent: () => {
      if (deps.ackSupported()) connection.waitingSince ??= clock.now();
    },
    onPing: (offset) => {
      connection.pings.push({ offset, at: clock.now() });
    },
    onEofSent: () => {
      connection.eofSent = true;
      connection.waitingSince = clock.now();
    },
    onWritten: () => {
      if (deps.proofByWrites()) connection.progress = true;
      deps.onWritten();
    },
    onUnreadable: deps.onUnreadable,
  };
  self.connection = connection;
  return connection;
}
