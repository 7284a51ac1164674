import WebSocket from 'ws';
import type { Clock } from '../ports';

/** How one connection ended: exactly one of these is reported per socket. */
export type SocketEnd =
  /** The upgrade was answered with an HTTP status instead of 101. */
  | { kind: 'refused'; status: number }
  /** The connection closed (1006 when it dropped without a close frame or never opened). */
  | { kind: 'closed'; code: number; reason: string; opened: boolean; error?: string };

export interface SocketHandlers {
  onOpen(): void;
  /** protocol: Extensions the sandbox offers (ACK: total audio bytes the session has). */
  onAck(receivedBytes: number): void;
  /** The service answered the ping that named this audio offset (RFC 6455 5.5.3). */
  onPong(offset: number): void;
  onEnd(end: SocketEnd): void;
}

export interface StreamSocket {
  /** Sends one text frame; `written` runs once the socket has handed it to the OS (never if it closed first). */
  send(frame: string, written: () => void): void;
  /**
   * A ping control frame naming a log offset, queued behind every frame sent before it. A service
   * answers a ping after reading what came before it, so its pong proves it has that audio.
   */
  ping(offset: number): void;
  /** Frame bytes handed to `send` and not yet written (ours, plus what ws still buffers). */
  readonly unwritten: number;
  readonly isOpen: boolean;
  /** A close frame with a code; the server's answer arrives through onEnd. */
  close(code: number, reason: string): void;
  /** Drops the connection at once (stuck handshake, stalled stream, abort without an answer). */
  terminate(): void;
}

export interface OpenOptions {
  url: string;
  headers: Record<string, string>;
  clock: Clock;
  /** An upgrade that takes longer than this counts as a failed attempt. */
  connectTimeoutMs: number;
}

/**
 * One WebSocket to the stream endpoint: the upgrade (with the binding headers), inbound ACKs, and
 * one report of how it ended. Everything above a single connection lives in the stream client.
 */
export function openStreamSocket(options: OpenOptions, handlers: SocketHandlers): StreamSocket {
  const ws = new WebSocket(options.url, { headers: options.headers, perMessageDeflate: false });
  let refusedStatus: number | undefined;
  let opened = false;
  let ended = false;
  let unwritten = 0;
  let lastError: string | undefined;

  const stopConnectTimer = options.clock.after(options.connectTimeoutMs, () => {
    if (!opened) {
      lastError = 'connect timeout';
      ws.terminate();
    }
  });

  ws.on('unexpected-response', (_request, response) => {
    refusedStatus = response.statusCode ?? 0;
    response.resume();
    // Without this, ws leaves the refused handshake hanging; terminate reports close 1006.
    ws.terminate();
  });
  ws.on('open', () => {
    opened = true;
    stopConnectTimer();
    handlers.onOpen();
  });
  ws.on('message', (data, isBinary) => {
    if (isBinary || ended) return;
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return; // The service sends JSON; anything else is not ours to act on.
    }
    const { type, received_bytes: received } = (message ?? {}) as Record<string, unknown>;
    if (type === 'ACK' && typeof received === 'number' && Number.isSafeInteger(received) && received >= 0) {
      handlers.onAck(received);
    }
  });
  ws.on('pong', (data) => {
    if (ended) return;
    // Our pings carry a decimal offset; an unsolicited pong (a heartbeat) carries something else.
    const text = data.toString('latin1');
    if (!/^\d{1,15}$/.test(text)) return;
    handlers.onPong(Number(text));
  });
  ws.on('error', (error) => {
    // A close event always follows; keep the cause for the log line of that close.
    lastError = error.message;
  });
  ws.on('close', (code, reason) => {
    stopConnectTimer();
    if (ended) return;
    ended = true;
    if (refusedStatus !== undefined) handlers.onEnd({ kind: 'refused', status: refusedStatus });
    else handlers.onEnd({ kind: 'closed', code, reason: reason.toString(), opened, error: lastError });
  });

  return {
    send(frame, written) {
      const size = Buffer.byteLength(frame);
      unwritten += size;
      ws.send(frame, (error) => {
        unwritten -= size;
        // An error means the socket closed first: the frame never left, so it does not count.
        if (!error) written();
      });
    },
    ping(offset) {
      if (ws.readyState === WebSocket.OPEN) ws.ping(String(offset));
    },
    get unwritten() {
      return Math.max(unwritten, ws.bufferedAmount);
    },
    get isOpen() {
      return ws.readyState === WebSocket.OPEN;
    },
    close(code, reason) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) {
        if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
        else ws.close(code, reason);
      }
    },
    terminate() {
      ws.terminate();
    },
  };
}
