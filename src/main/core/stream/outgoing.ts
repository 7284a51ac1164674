import type { Clock, Logger } from '../ports';
import type { AudioLog } from './audio-log';
import { createDrainPacer } from './drain-pacer';
import { enqueueEvent, nextFrame, type QueuedEvent } from './frame-plan';
import type { StreamEventName } from './stream-port';
import type { StreamSocket } from './stream-socket';

/** Frame bytes in the socket's buffers beyond which we stop adding (back-pressure). */
export const HIGH_WATER_BYTES = 64 * 1024;

/**
 * Against a service without ACK, audio sent but not yet proven by a pong beyond which we stop
 * adding (2 s of audio): what a dead connection makes us send twice stays bounded even when a
 * slow link holds a backlog in its buffers. A live stream at 1× never comes near it.
 */
export const MAX_UNPROVEN_BYTES = 64_000;

/**
 * Against a service with ACK, a ping behind audio at most this often. There the ACKs prove what
 * the service has, and a ping only checks that the connection lives: one a second keeps a hung
 * service found within the liveness bound plus a second, where a ping behind every 100 ms frame
 * (and its pong) cost the core CPU for nothing the ACKs do not tell (docs/benchmarks.md, issue 40).
 * Without ACK every frame still gets its ping: the pongs are the proof of receipt.
 */
export const ACK_MODE_PING_EVERY_MS = 1_000;

/** One connection as the sender sees it. */
export interface Wire {
  socket: StreamSocket;
  /** False once this connection stopped being the current one (its callbacks then do nothing). */
  live(): boolean;
  onAudioSent(): void;
  /** A ping naming this offset went out behind everything sent so far. */
  onPing(offset: number): void;
  onEofSent(): void;
  /** The socket wrote a frame: there may be room for more. */
  onWritten(): void;
  onUnreadable(error: unknown): void;
}

/**
 * What is where: the outgoing log, the events queued at log offsets, and four offsets into the
 * log — sent (on the wire of this connection), written (fully written by a socket), proven (a pong
 * answered a ping sent after it: the service read it) and acked (the service's last ACK). Cuts
 * frames from the log, pings after them, and paces them; knows nothing of reconnecting.
 */
export function createOutgoing(deps: {
  audio: AudioLog;
  clock: Clock;
  log: Logger;
  sessionId: string;
  maxDrainFactor: number;
  /** Called when pacing allows the next frame: pump again. */
  wake(): void;
}) {
  const { audio, clock, log, sessionId } = deps;
  const pacer = createDrainPacer(deps.maxDrainFactor);
  const events: QueuedEvent[] = [];
  let sent = 0;
  let written = 0;
  let acked = 0;
  // What an earlier run of the app knew the service had (the spool's manifest), else nothing.
  let proven = audio.confirmed ?? 0;
  let ackSupported: boolean | undefined;
  /** Whether the service answers pings (learned: RFC 6455 says it must; one that never does falls back). */
  let pongs: boolean | undefined;
  let finishTarget = 0;
  let finishing = false;
  let stopPacing: (() => void) | undefined;
  /** When the last ping went out on this connection (none yet: -Infinity). */
  let lastPingAt = -Infinity;

  const ackMode = () => ackSupported === true;
  /** Without ACK, pongs are the proof (unless the service answers none: then written bytes are). */
  const proofByPongs = () => ackSupported === false && pongs !== false;

  /** protocol: RFC 6455 5.5.2 (ping): answered in order, after what was sent before it. */
  const ping = (wire: Wire) => {
    if (pongs === false) return;
    wire.socket.ping(sent);
    wire.onPing(sent);
    lastPingAt = clock.now();
  };
  /** Behind audio: every frame without ACK (the proof), at most once a second with it (liveness). */
  const pingBehindAudio = (wire: Wire) => {
    if (!ackMode() || clock.now() - lastPingAt >= ACK_MODE_PING_EVERY_MS) ping(wire);
  };

  const sendEvent = (socket: StreamSocket, event: StreamEventName) =>
    // protocol: Audio stream (EVENT: one JSON object per text frame)
    socket.send(JSON.stringify({ type: 'EVENT', event }), () => undefined);

  return {
    audio,
    get sent() {
      return sent;
    },
    get written() {
      return written;
    },
    get acked() {
      return acked;
    },
    get proven() {
      return proven;
    },
    /**
     * What the service is known to have: its ACK; without ACK, what its pongs proved; from a
     * service that answers no ping either, only what the socket wrote (all that can be known).
     */
    get confirmed() {
      if (ackSupported !== false) return acked;
      return pongs === false ? written : proven;
    },
    /** Where a new connection to a service without ACK starts: never beyond what is known. */
    get resumePoint() {
      return pongs === false ? Math.max(written, proven) : proven;
    },
    get pongsAnswered() {
      return pongs;
    },
    /** No pong came within the liveness bound on a connection, and none ever has: stop asking. */
    noPongs() {
      pongs = false;
    },
    get finishTarget() {
      return finishTarget;
    },
    get ackSupported() {
      return ackSupported;
    },
    set ackSupported(value: boolean | undefined) {
      ackSupported = value;
    },
    sendEvent,

    /** Queues an event behind all audio appended so far. */
    queueEvent(event: StreamEventName) {
      enqueueEvent(events, event, audio.length);
    },

    /** EOF after the last byte appended so far; no audio may follow. */
    beginFinish() {
      finishing = true;
      finishTarget = audio.length;
      enqueueEvent(events, 'EOF', finishTarget);
    },

    /** Forgets queued events (abort, cancel, a close for good) and any finish in progress. */
    reset() {
      events.length = 0;
      finishing = false;
    },

    /**
     * A new connection sends from `from`: the service's first ACK, or the written offset. Events
     * sent on the old connection are gone; an EOF in progress is queued again.
     */
    startAt(from: number) {
      if (from > audio.length) {
        log.error('stream: the service has more audio than was appended', {
          sessionId,
          from,
          appended: audio.length,
        });
        from = audio.length;
      }
      if (ackMode() && from < acked)
        log.warn('stream: the service acknowledges less than before', { from, acked });
      sent = from;
      written = from;
      lastPingAt = -Infinity;
      if (ackMode()) acked = proven = from;
      pacer.reset(clock.now());
      if (finishing && !events.some((e) => e.event === 'EOF')) enqueueEvent(events, 'EOF', finishTarget);
      log.info('stream: resuming', { sessionId, from, appended: audio.length });
    },

    /**
     * The service read everything before `offset`: it answered a ping sent after it, or closed
     * with 1000 after reading our EOF there. Returns whether it moved forward.
     */
    prove(offset: number, byPong: boolean): boolean {
      if (byPong) pongs = true;
      if (offset <= proven) return false;
      proven = Math.min(offset, sent);
      if (ackSupported === false) audio.release?.(proven);
      return true;
    },

    /** protocol: Extensions (ACK). Returns whether it moved forward. */
    ack(n: number): boolean {
      const forward = n > acked;
      acked = n;
      audio.release?.(n);
      return forward;
    },

    stopPacing() {
      stopPacing?.();
      stopPacing = undefined;
    },

    /** Sends what may go now: in log order, 100 ms chunks, under the pace and the high-water mark. */
    pump(wire: Wire): void {
      const { socket } = wire;
      if (!socket.isOpen || stopPacing) return;
      for (;;) {
        const next = nextFrame(sent, events, audio.length);
        if (next.kind === 'wait') return;
        if (next.kind === 'event') {
          events.shift();
          sendEvent(socket, next.event.event);
          // A ping behind every event too: a paused stream is still checked for life, and so is
          // one waiting for the close after EOF (a service that closes never needs to answer).
          ping(wire);
          if (next.event.event === 'EOF') {
            if (sent < finishTarget) {
              // Only when the last stretch is under 20 ms (odd append sizes): the service refuses it.
              log.warn('stream: audio tail under 20 ms not sent', { sessionId, bytes: finishTarget - sent });
              finishTarget = sent;
            }
            wire.onEofSent();
          }
          continue;
        }
        // protocol: Sandbox: the stream in detail (rate cap by back-pressure): never pile data
        // into the socket the service is not reading; a write callback pumps again.
        if (socket.unwritten >= HIGH_WATER_BYTES) return;
        // A pong pumps again.
        if (proofByPongs() && sent - proven >= MAX_UNPROVEN_BYTES) return;
        const waitMs = pacer.take(next.bytes, clock.now());
        if (waitMs > 0) {
          stopPacing = clock.after(waitMs, () => {
            stopPacing = undefined;
            deps.wake();
          });
          return;
        }
        let pcm: Uint8Array;
        try {
          pcm = audio.read(sent, next.bytes);
        } catch (error) {
          return wire.onUnreadable(error);
        }
        const end = sent + pcm.length;
        // protocol: Audio stream (AUDIO: standard base64 of LINEAR16 LE in a JSON text frame)
        const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64');
        socket.send(JSON.stringify({ type: 'AUDIO', data }), () => {
          if (!wire.live()) return;
          written = Math.max(written, end);
          wire.onWritten();
        });
        sent = end;
        wire.onAudioSent();
        pingBehindAudio(wire);
      }
    },
  };
}

export type Outgoing = ReturnType<typeof createOutgoing>;
