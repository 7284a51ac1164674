import type { Clock, Logger } from '../ports';
import type { AudioLog } from './audio-log';
import { createDrainPacer } from './drain-pacer';
import { enqueueEvent, nextFrame, type QueuedEvent } from './frame-plan';
import type { StreamEventName } from './stream-port';
import type { StreamSocket } from './stream-socket';

/** Frame bytes in the socket's buffers beyond which we stop adding (back-pressure). */
export const HIGH_WATER_BYTES = 64 * 1024;

/** One connection as the sender sees it. */
export interface Wire {
  socket: StreamSocket;
  /** False once this connection stopped being the current one (its callbacks then do nothing). */
  live(): boolean;
  onAudioSent(): void;
  onEofSent(): void;
  /** The socket wrote a frame: there may be room for more. */
  onWritten(): void;
  onUnreadable(error: unknown): void;
}

/**
 * What is where: the outgoing log, the events queued at log offsets, and three offsets into the
 * log — sent (on the wire of this connection), written (fully written by a socket) and acked (the
 * service's last ACK). Cuts frames from the log and paces them; knows nothing of reconnecting.
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
  let ackSupported: boolean | undefined;
  let finishTarget = 0;
  let finishing = false;
  let stopPacing: (() => void) | undefined;

  const ackMode = () => ackSupported === true;

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
    /** What the service is known to have: its ACK, or without ACK what the socket wrote. */
    get confirmed() {
      return ackSupported === false ? written : acked;
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
      if (ackMode()) acked = from;
      pacer.reset(clock.now());
      if (finishing && !events.some((e) => e.event === 'EOF')) enqueueEvent(events, 'EOF', finishTarget);
      log.info('stream: resuming', { sessionId, from, appended: audio.length });
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
      }
    },
  };
}

export type Outgoing = ReturnType<typeof createOutgoing>;
