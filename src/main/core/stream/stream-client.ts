import { streamUrl } from '../service/token-source';
import { createMemoryAudioLog } from './audio-log';
import { createLinkState } from './link-state';
import { openConnection, type Connection } from './connection';
import { createConnectionWatch } from './connection-watch';
import { createOutgoing } from './outgoing';
import {
  backoffDelay,
  DEFAULT_RECONNECT,
  verdictForClose,
  verdictForRefusal,
  type Verdict,
} from './reconnect-policy';
import { settler, type Settler, type StreamClient, type StreamClientOptions } from './stream-client-options';
import type { SocketEnd } from './stream-socket';

export type { StreamClient, StreamClientOptions } from './stream-client-options';

type Mode = 'idle' | 'streaming' | 'finishing' | 'cancelling' | 'aborting' | 'finished' | 'cancelled';

/** A connection lasting this long counts as good even if nothing needed sending (a pause). */
const STABLE_MS = 2_000;

/**
 * A ping unanswered this long means a dead connection (docs/reliability.md, "Liveness"): far above
 * a pong's round trip under load (p99 under 10 ms on loopback, a few hundred ms on a poor Wi-Fi),
 * and above TCP's own recovery of a lost segment three times over (0.2 + 0.4 + 0.8 s), so a slow
 * but working link is never cut; short enough that a hung service is left within a few seconds.
 */
export const DEFAULT_LIVENESS_TIMEOUT_MS = 5_000;

/**
 * The audio stream to the service for one session (docs/protocol.md "Audio stream"): binds by
 * upgrade headers, sends the outgoing log in 100 ms chunks with a WebSocket ping after each (at most
 * one a second where the service sends ACK: outgoing.ts), resumes after every reconnect from the
 * service's first ACK (or, for a service without ACK, from the highest offset its pongs proved it
 * read — never from the last byte written), and drains a backlog at up to maxDrainFactor × real
 * time behind which live audio keeps queueing.
 *
 * Events go out in log order: an event waits until all audio appended before it is on the wire.
 * Events already written to a connection that then dropped are NOT replayed on the next one (the
 * service may or may not have seen them): the recorder re-sends PAUSE when it sees 'open' again.
 * Events queued while the link was down go out, in order, when the drain reaches them.
 */
export function createStreamClient(options: StreamClientOptions): StreamClient {
  const { clock, log, tokens, sessionId } = options;
  const policy = { ...DEFAULT_RECONNECT, ...options.reconnect };
  const random = options.random ?? Math.random;
  const useAck = options.useAck ?? true;
  const firstAckWaitMs = options.firstAckWaitMs ?? 1_000;
  const stallTimeoutMs = options.stallTimeoutMs ?? 15_000;
  const livenessTimeoutMs = options.livenessTimeoutMs ?? DEFAULT_LIVENESS_TIMEOUT_MS;
  const closeTimeoutMs = options.closeTimeoutMs ?? 5_000;
  const link = createLinkState(log, sessionId);
  const out = createOutgoing({
    audio: options.audioLog ?? createMemoryAudioLog(),
    clock,
    log,
    sessionId,
    maxDrainFactor: options.maxDrainFactor ?? 4,
    wake: () => pump(),
  });
  if (!useAck) out.ackSupported = false;

  let mode: Mode = 'idle';
  let current: Connection | undefined;
  let attemptInFlight = false;
  let generation = 0; // bumps to abandon an attempt in flight (abort, dispose)
  let failures = 0; // failed attempts since the last good connection
  let renewNext = false;
  let renewedSinceOpen = false;
  let stopRetry: (() => void) | undefined;
  let finishing: Settler | undefined;
  let cancelling: Settler | undefined;
  let aborting: Settler | undefined;

  const busy = () => current !== undefined || attemptInFlight || stopRetry !== undefined;

  // ---- connecting ---------------------------------------------------------------------------------

  const connectNow = () => {
    stopRetry?.();
    stopRetry = undefined;
    if (current || attemptInFlight) return;
    attemptInFlight = true;
    void attempt(++generation);
  };

  const attempt = async (gen: number) => {
    let credentials;
    try {
      credentials = renewNext ? await tokens.renew() : await tokens.current();
      renewNext = false;
    } catch (error) {
      if (gen !== generation) return;
      attemptInFlight = false;
      failures += 1;
      log.warn('stream: no credentials', { sessionId, error: String(error) });
      return retryOrStop({ action: 'retry', reason: 'sign-in failed' });
    }
    if (gen !== generation) return;
    attemptInFlight = false;
    current = openConnection({
      url: streamUrl(options.endpoint),
      sessionId,
      credentials,
      clock,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      isCurrent: (connection) => connection === current,
      ackSupported: () => out.ackSupported,
      proofByWrites: () => out.ackSupported === false && out.pongsAnswered === false,
      onOpen,
      onAck,
      onPong,
      onEnd,
      onWritten: () => pump(),
      onUnreadable: (error) => stop(`audio log unreadable: ${String(error)}`, undefined, true),
    });
  };

  const onOpen = (connection: Connection) => {
    connection.openedAt = clock.now();
    if (mode === 'cancelling') return sendClosing(connection, 'CANCEL');
    if (out.ackSupported === false) return resume(connection, out.resumePoint);
    // protocol: Extensions (ACK: the first one after the upgrade says where to resume)
    connection.timers.push(
      clock.after(firstAckWaitMs, () => {
        if (connection !== current || connection.resumed) return;
        if (out.ackSupported) {
          log.warn('stream: no ACK after the upgrade; reconnecting', { sessionId });
          return connection.socket.terminate();
        }
        log.info('stream: the service sends no ACK; resuming from what its pongs proved', { sessionId });
        out.ackSupported = false;
        resume(connection, out.resumePoint);
      }),
    );
  };

  const resume = (connection: Connection, from: number) => {
    connection.resumed = true;
    renewedSinceOpen = false;
    out.startAt(from);
    const every = Math.min(1_000, stallTimeoutMs / 4, livenessTimeoutMs / 4);
    connection.timers.push(clock.every(every, () => watch(connection)));
    link.set('open');
    pump();
  };

  const checkConnection = createConnectionWatch({
    clock,
    log,
    sessionId,
    out,
    livenessTimeoutMs,
    stallTimeoutMs,
  });
  const watch = (connection: Connection) => {
    if (connection === current) checkConnection(connection);
  };

  const onPong = (connection: Connection, offset: number) => {
    if (out.prove(offset, true) && out.ackSupported === false) connection.progress = true;
    // Room under the unproven window again.
    pump();
  };

  const onAck = (connection: Connection, n: number) => {
    if (!useAck) return;
    if (!connection.resumed) {
      out.ackSupported = true;
      return resume(connection, n);
    }
    if (out.ack(n)) connection.progress = true;
    if (!connection.eofSent) connection.waitingSince = n >= out.sent ? undefined : clock.now();
  };

  const pump = () => {
    if (current?.resumed && (mode === 'streaming' || mode === 'finishing')) out.pump(current);
  };

  /** CANCEL or ABORT now (not behind the backlog), then wait for the service's close. */
  const sendClosing = (connection: Connection, event: 'CANCEL' | 'ABORT') => {
    out.sendEvent(connection.socket, event);
    if (event === 'CANCEL') connection.cancelSent = true;
    connection.timers.push(clock.after(closeTimeoutMs, () => connection.socket.terminate()));
  };

  // ---- endings ------------------------------------------------------------------------------------

  const onEnd = (connection: Connection, end: SocketEnd) => {
    current = undefined;
    connection.timers.forEach((stopTimer) => stopTimer());
    out.stopPacing();
    const stable =
      connection.progress || (connection.resumed && clock.now() - connection.openedAt >= STABLE_MS);
    failures = end.kind === 'closed' && end.opened && stable ? 0 : failures + 1;

    if (end.kind === 'refused') {
      if (mode === 'cancelling' && (end.status === 404 || end.status === 409)) return settle('cancelled');
      log.warn('stream: upgrade refused', { sessionId, status: end.status });
      return retryOrStop(verdictForRefusal(end.status, renewedSinceOpen));
    }
    const { code, reason } = end;
    log.info('stream: closed', { sessionId, code, reason, opened: end.opened, error: end.error });
    if (!end.opened) return retryOrStop({ action: 'retry', reason: 'service unreachable' }, code);
    if (mode === 'aborting') return settle('idle', code);
    if (mode === 'cancelling' && connection.cancelSent && code === 1000) return settle('cancelled', code);
    // protocol: Audio stream (1000 after EOF) — done once the service has every byte.
    if (mode === 'finishing' && connection.eofSent && code === 1000) {
      // The service closed after reading our EOF: it read every byte before it.
      if (out.ackSupported === false) out.prove(out.finishTarget, false);
      if (out.confirmed >= out.finishTarget) return settle('finished', code);
      log.warn('stream: closed after EOF without every byte; resending', { sessionId, acked: out.acked });
      return retryOrStop({ action: 'retry', reason: 'closed before every byte arrived' }, code);
    }
    retryOrStop(verdictForClose(code, reason), code);
  };

  const retryOrStop = (verdict: Verdict, closeCode?: number) => {
    if (verdict.action === 'stop') return stop(verdict.reason, closeCode, verdict.clientBug);
    if (verdict.renewToken) {
      renewNext = true;
      renewedSinceOpen = true;
    }
    const delay = verdict.immediate ? 0 : backoffDelay(failures, policy, random);
    link.set(failures >= policy.offlineAfterAttempts ? 'offline' : 'reconnecting', closeCode, verdict.reason);
    stopRetry = clock.after(delay, () => {
      stopRetry = undefined;
      connectNow();
    });
  };

  const dropConnection = () => {
    generation += 1;
    attemptInFlight = false;
    stopRetry?.();
    stopRetry = undefined;
    out.stopPacing();
    const connection = current;
    current = undefined;
    connection?.timers.forEach((stopTimer) => stopTimer());
    connection?.socket.terminate();
  };

  /** Closed for good: finish() and cancel() cannot complete; connect() may try again later. */
  const stop = (reason: string, closeCode?: number, clientBug = false) => {
    if (clientBug) log.error('stream: closed for good', { sessionId, reason, closeCode });
    else log.warn('stream: closed for good', { sessionId, reason, closeCode });
    dropConnection();
    out.reset();
    mode = 'idle';
    link.set('closed', closeCode, reason);
    finishing?.reject(new Error(`stream closed: ${reason}`));
    cancelling?.reject(new Error(`stream closed: ${reason}`));
    aborting?.resolve();
    finishing = cancelling = aborting = undefined;
  };

  /** A close we asked for completed ('idle' after ABORT: connect() continues the session). */
  const settle = (next: 'idle' | 'finished' | 'cancelled', closeCode?: number) => {
    mode = next;
    out.reset();
    link.set('closed', closeCode, next === 'idle' ? 'aborted' : next);
    if (next === 'finished') finishing?.resolve();
    if (next === 'cancelled') cancelling?.resolve();
    if (next === 'idle') aborting?.resolve();
    finishing = cancelling = aborting = undefined;
  };

  // ---- the port -----------------------------------------------------------------------------------

  const startOrPump = () => {
    if (busy()) return pump();
    failures = 0;
    link.set('connecting');
    connectNow();
  };

  const client: StreamClient = {
    connect() {
      if (mode === 'aborting') return void aborting?.promise.then(() => client.connect());
      if (mode === 'cancelled') return log.warn('stream: connect after cancel ignored', { sessionId });
      if (mode === 'idle' || mode === 'finished') mode = 'streaming';
      startOrPump();
    },

    sendAudio(pcm) {
      // protocol: Audio stream (LINEAR16: whole 16-bit samples)
      if (pcm.length % 2 !== 0)
        throw new RangeError(`audio must be whole 16-bit samples; got ${pcm.length} bytes`);
      if (mode === 'finishing' || mode === 'finished' || mode === 'cancelling' || mode === 'cancelled') {
        return log.warn('stream: audio after finish or cancel ignored', { sessionId, bytes: pcm.length });
      }
      out.audio.append(pcm);
      pump();
    },

    sendEvent(event) {
      if (event === 'EOF') return void client.finish().catch(() => undefined);
      if (event === 'CANCEL') return void client.cancel().catch(() => undefined);
      if (event === 'ABORT') return void client.abort();
      if (mode !== 'streaming' && mode !== 'idle') return;
      out.queueEvent(event);
      pump();
    },

    finish() {
      if (mode === 'finished') return Promise.resolve();
      if (mode === 'finishing' && finishing) return finishing.promise;
      if (mode === 'cancelling' || mode === 'cancelled') return Promise.reject(new Error('stream cancelled'));
      if (mode === 'aborting') return (aborting as Settler).promise.then(() => client.finish());
      mode = 'finishing';
      finishing = settler();
      out.beginFinish();
      startOrPump();
      return finishing.promise;
    },

    abort() {
      if (aborting) return aborting.promise;
      finishing?.reject(new Error('stream aborted'));
      cancelling?.reject(new Error('stream aborted'));
      finishing = cancelling = undefined;
      out.reset();
      stopRetry?.();
      stopRetry = undefined;
      if (current?.socket.isOpen) {
        mode = 'aborting';
        aborting = settler();
        sendClosing(current, 'ABORT');
        return aborting.promise;
      }
      // Not connected (or still connecting): nothing to tell the service; abandon any attempt.
      dropConnection();
      settle('idle');
      return Promise.resolve();
    },

    cancel() {
      if (mode === 'cancelled') return Promise.resolve();
      if (mode === 'cancelling' && cancelling) return cancelling.promise;
      if (mode === 'aborting') return (aborting as Settler).promise.then(() => client.cancel());
      finishing?.reject(new Error('stream cancelled'));
      finishing = undefined;
      out.reset();
      mode = 'cancelling';
      cancelling = settler();
      // Connected: CANCEL now. Otherwise onOpen sends it once a connection opens (retrying as usual).
      if (current?.socket.isOpen) sendClosing(current, 'CANCEL');
      else if (!busy()) startOrPump();
      return cancelling.promise;
    },

    get bytes() {
      return { appended: out.audio.length, sent: out.sent, acked: out.confirmed };
    },

    onLinkChange: (listener) => link.subscribe(listener),

    get link() {
      return link.current;
    },

    audioLog: out.audio,

    reconnectNow() {
      if ((mode !== 'streaming' && mode !== 'finishing') || !busy()) return;
      log.info('stream: reconnecting now (the computer woke up or the network changed)', { sessionId });
      dropConnection();
      failures = 0;
      link.set('reconnecting', undefined, 'reconnecting after sleep or a network change');
      connectNow();
    },

    dispose() {
      // A finished or cancelled stream has nothing left to stop but a socket on its way out; only
      // a stream disposed mid-way (the app quits) is worth a warning.
      if (mode === 'finished' || mode === 'cancelled') return dropConnection();
      stop('disposed');
    },
  };
  return client;
}
