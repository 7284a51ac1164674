import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';
import type { Timing } from '../limits';
import type { SessionRecord } from '../sessions/session-record';
import type { SessionStore } from '../sessions/session-store';
import { CLOSE } from './close-codes';
import { parseStreamMessage, type StreamEvent } from './messages';
import { createAudioRateLimiter } from './rate-limiter';

export interface StreamConnectionDeps {
  store: SessionStore;
  timing: Timing;
  /**
   * Send the ACK extension (default true). Off, the sandbox behaves like a service that follows
   * only the interface: a client then knows what arrived from WebSocket pongs alone.
   */
  ack?: boolean;
  now?: () => number;
}

export interface StreamConnection {
  readonly session: SessionRecord;
  /** Closes with a code and reason after a final ACK. */
  close(code: number, reason: string): void;
  /** Cuts the TCP connection without a close frame, like a network drop (fault injection). */
  drop(): void;
  /** Closes with 4001, as when the token the stream was opened with expires. */
  expireToken(): void;
  /**
   * Stops reading the socket for `ms` (the client's writes pile up in TCP buffers, and no pong
   * answers its pings), then resets the TCP connection (RST, no close frame): a service that
   * hangs and then dies. What it read before the stall is kept (fault injection).
   */
  stallThenReset(ms: number): void;
  /** Resolves when the socket has closed. */
  readonly closed: Promise<number>;
}

/**
 * One open audio stream for one session: applies AUDIO and EVENT messages, runs the service's
 * timers, and answers with ACKs. The session stays resumable whenever the stream closes, unless
 * it was cancelled or ended.
 */
export function runStreamConnection(
  socket: WebSocket,
  tcp: Socket,
  session: SessionRecord,
  tokenExpiresAt: number,
  deps: StreamConnectionDeps,
): StreamConnection {
  const { store, timing } = deps;
  const now = deps.now ?? Date.now;
  const limiter = createAudioRateLimiter(timing.scale, now);
  const ackOn = deps.ack ?? true;
  let paused = false;
  let open = true;
  let stalled = false;
  let ackedBytes = -1;
  const timers = new Map<string, NodeJS.Timeout>();

  const arm = (name: string, ms: number, fire: () => void) => {
    clearTimeout(timers.get(name));
    timers.set(name, setTimeout(fire, Math.max(0, ms)));
  };
  const disarm = (name: string) => {
    clearTimeout(timers.get(name));
    timers.delete(name);
  };

  // protocol: Extensions (ACK: total audio bytes accepted for the session, across connections)
  const sendAck = () => {
    if (!ackOn || !open || socket.readyState !== socket.OPEN || ackedBytes === session.receivedBytes) return;
    ackedBytes = session.receivedBytes;
    socket.send(JSON.stringify({ type: 'ACK', received_bytes: session.receivedBytes }));
  };

  const close = (code: number, reason: string) => {
    if (!open) return;
    sendAck();
    open = false;
    keepInbox();
    store.record(session, `close:${code}`, reason);
    socket.close(code, reason);
  };

  // protocol: Audio stream (4008 after 25 s without AUDIO while not paused)
  const armIdle = () =>
    arm('idle', timing.ms('idleAudioMs'), () => close(CLOSE.timeout, 'no audio for 25 s'));
  // protocol: Audio stream (4008 after 6 s paused without a KEEP_ALIVE)
  const armKeepAlive = () =>
    arm('keepAlive', timing.ms('keepAliveDeadlineMs'), () =>
      close(CLOSE.timeout, 'paused without KEEP_ALIVE'),
    );

  const pause = () => {
    paused = true;
    disarm('idle');
    armKeepAlive();
    // protocol: Audio stream (4009 after 30 min paused even with KEEP_ALIVE arriving)
    arm('pauseLimit', timing.ms('maxPauseMs'), () => close(CLOSE.pauseLimit, 'paused for 30 minutes'));
    store.setStatus(session, 'paused');
  };
  const resume = () => {
    paused = false;
    disarm('keepAlive');
    disarm('pauseLimit');
    armIdle();
    store.setStatus(session, 'running');
  };

  const onEvent = (event: StreamEvent) => {
    store.record(session, event);
    switch (event) {
      case 'PAUSE':
        if (!paused) pause();
        return;
      case 'RESUME':
        if (paused) resume();
        return;
      case 'KEEP_ALIVE':
        if (paused) armKeepAlive();
        return;
      case 'CANCEL':
        // protocol: Audio stream (CANCEL: session cancelled completely, 1000)
        store.setStatus(session, 'cancelled');
        close(CLOSE.normal, 'cancelled');
        return;
      case 'ABORT':
      case 'EOF':
        // protocol: Audio stream (ABORT/EOF end the connection; the session stays resumable)
        store.setStatus(session, 'aborted');
        close(CLOSE.normal, event === 'EOF' ? 'end of stream' : 'aborted');
        return;
    }
  };

  // Messages wait in arrival order while the rate cap holds reading back: ws.pause() stops the
  // socket, but frames it already read still arrive, and events must not overtake audio. Pings
  // wait in the same line: a pong says the service has read everything sent before its ping,
  // as from any service that reads its socket in order (ws answers at once unless told not to).
  const inbox: ({ data: Buffer; isBinary: boolean } | { ping: Buffer })[] = [];
  let throttled = false;

  /**
   * Audio that arrived but waited (behind the rate cap, or a stall) is kept when the connection
   * ends: nothing read is dropped. It lands before any newer connection's audio, so a client that
   * resumes from an earlier point repeats a span but never reorders one.
   */
  const keepInbox = () => {
    for (const item of inbox.splice(0)) {
      if ('ping' in item || item.isBinary) continue;
      const message = parseStreamMessage(item.data.toString());
      if (message.type === 'AUDIO') store.appendAudio(session, message.pcm);
    }
  };

  const acceptAudio = (pcm: Buffer) => {
    // Audio while paused means the client is speaking again: treat it as RESUME, keep it.
    if (paused) {
      store.record(session, 'RESUME', 'implicit: AUDIO while paused');
      resume();
    }
    store.appendAudio(session, pcm);
    // ACK each accepted chunk (it is on disk now): the client's resume point is always exact.
    sendAck();
    armIdle();
  };

  const handle = (data: Buffer, isBinary: boolean): number => {
    // protocol: Audio stream (binary frames and unknown types → 1003)
    if (isBinary) {
      close(CLOSE.unsupported, 'binary frames are not accepted; send JSON text frames');
      return 0;
    }
    const message = parseStreamMessage(data.toString());
    switch (message.type) {
      case 'unsupported':
        close(CLOSE.unsupported, message.reason);
        return 0;
      case 'invalid_audio':
        close(CLOSE.invalidAudio, message.reason);
        return 0;
      case 'EVENT':
        onEvent(message.event);
        return 0;
      case 'AUDIO':
        acceptAudio(message.pcm);
        // protocol: Audio stream (caps at 4× real time)
        return limiter.take(message.pcm.length);
    }
  };

  const pump = () => {
    while (open && !throttled && !stalled && inbox.length > 0) {
      const next = inbox.shift() as (typeof inbox)[number];
      if ('ping' in next) {
        // protocol: RFC 6455 5.5.3 (a pong carries the ping's application data)
        if (socket.readyState === socket.OPEN) socket.pong(next.ping);
        continue;
      }
      const waitMs = handle(next.data, next.isBinary);
      if (waitMs > 0) {
        // Over the cap: stop reading (TCP pushes back on the client) and come back later.
        throttled = true;
        socket.pause();
        setTimeout(() => {
          throttled = false;
          socket.resume();
          pump();
        }, waitMs);
      }
    }
  };

  socket.on('message', (data: Buffer, isBinary) => {
    if (!open) return;
    inbox.push({ data, isBinary });
    pump();
  });
  socket.on('ping', (data: Buffer) => {
    if (!open) return;
    session.pings = (session.pings ?? 0) + 1;
    inbox.push({ ping: data });
    pump();
  });

  const closed = new Promise<number>((resolve) => {
    socket.on('close', (code) => {
      // (A client resumes from the ACK sent right after its next upgrade, which counts the audio
      // kept here.)
      keepInbox();
      open = false;
      for (const timer of timers.values()) clearTimeout(timer);
      clearInterval(ackTicker);
      store.record(session, 'disconnect', String(code));
      if (session.status === 'running' || session.status === 'paused') store.setStatus(session, 'aborted');
      void store.save(session);
      resolve(code);
    });
  });

  // Start: the session is running, the client learns where to resume from.
  session.connections += 1;
  // Where this connection's audio starts in the session's audio: a test finds a repeated span there.
  store.record(session, 'connect', `connection ${session.connections} at byte ${session.receivedBytes}`);
  store.setStatus(session, 'running');
  armIdle();
  // protocol: Extensions (4001 when the token the stream was opened with expires)
  const expireToken = () => close(CLOSE.tokenExpired, 'token expired');
  arm('token', tokenExpiresAt - now(), expireToken);
  sendAck();
  // protocol: Extensions (ACK at least once a second while audio flows)
  // A floor keeps heavily time-scaled runs from spinning.
  const ackTicker = ackOn ? setInterval(sendAck, Math.max(20, timing.ms('ackIntervalMs'))) : undefined;

  return {
    session,
    close,
    drop: () => {
      open = false;
      keepInbox();
      store.record(session, 'fault', 'connection dropped');
      socket.terminate();
    },
    expireToken,
    stallThenReset: (ms) => {
      if (!open || stalled) return;
      stalled = true;
      store.record(session, 'fault', `stopped reading for ${ms} ms`);
      socket.pause();
      disarm('idle');
      disarm('keepAlive');
      arm('stall', ms, () => {
        if (open) store.record(session, 'fault', 'connection reset');
        open = false;
        keepInbox();
        // RST, not FIN: the client's unread bytes are thrown away with the connection.
        tcp.resetAndDestroy();
      });
    },
    closed,
  };
}
