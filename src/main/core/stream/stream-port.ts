/**
 * The seam between the recorder (policy: what to send, when to pause) and the stream client
 * (transport: the WebSocket, ACKs, reconnects). The recorder is tested against a fake of this;
 * the stream client implements it against the real service.
 */
export type StreamEventName = 'PAUSE' | 'RESUME' | 'CANCEL' | 'ABORT' | 'KEEP_ALIVE' | 'EOF';

export type StreamLinkState =
  /** Opening the first connection. */
  | 'connecting'
  /** Upgraded; audio flows. */
  | 'open'
  /** Lost the connection; retrying with backoff (the outgoing log keeps growing). */
  | 'reconnecting'
  /** Retries keep failing (the service is unreachable); still retrying, less often. */
  | 'offline'
  /** Closed for good: after EOF/CANCEL/ABORT, or a close the client must not retry. */
  | 'closed';

export interface StreamLinkChange {
  state: StreamLinkState;
  /** The close code that caused the change, when there was one. */
  closeCode?: number;
  /** A short reason for logs and for the clinician ("service unreachable", "pause limit"). */
  reason?: string;
}

export interface StreamPort {
  /** Opens the connection (binding to the session by upgrade headers). Safe to call again after ABORT. */
  connect(): void;
  /** Appends audio (LINEAR16 LE 16 kHz mono) to the outgoing log: sent in order, exactly once at the service. */
  sendAudio(pcm: Uint8Array): void;
  /** Queues an event behind all audio appended so far. Events are not replayed after a reconnect. */
  sendEvent(event: StreamEventName): void;
  /**
   * Ends the stream: EOF after all audio, then resolves once the service has every byte (the ACK
   * extension says so, or without ACK the socket wrote it all) and closed with 1000.
   */
  finish(): Promise<void>;
  /** ABORT and close; the session stays resumable and connect() continues it later. */
  abort(): Promise<void>;
  /** CANCEL and close: the session is discarded at the service. */
  cancel(): Promise<void>;
  /** Bytes appended, sent on the wire, and acknowledged by the service. */
  readonly bytes: { appended: number; sent: number; acked: number };
  onLinkChange(listener: (change: StreamLinkChange) => void): () => void;
}
