import type { Logger } from '../ports';
import type { StreamLinkChange, StreamLinkState, StreamPort } from '../stream/stream-port';

/** What a link change means for the recorder. */
export type LinkVerdict = 'ignored' | 'changed' | 'unexpected-close';

/**
 * What the service believes about our stream, and the events that keep it in line with the
 * recorder's pause. A new connection starts running at the service, so on 'open' the pause (if
 * any) is stated again; PAUSE and KEEP_ALIVE go out only on an open link. RESUME goes out
 * whenever a PAUSE was handed over, even with the link down: the stream client may still hold
 * that PAUSE for the next connection, and audio after a PAUSE with no RESUME must never happen
 * (RESUME on a running stream is harmless).
 */
export class ServiceLink {
  private link: StreamLinkState | null = null;
  /** The last pause event handed to the stream was PAUSE. */
  private servicePaused = false;
  /** Our ABORT (pause limit) closed the link; set until we connect again. */
  private aborted: { done: Promise<void>; settled: boolean; connectWhenSettled: boolean } | null = null;

  constructor(
    private readonly stream: StreamPort,
    private readonly log: Logger,
  ) {}

  get state(): StreamLinkState | null {
    return this.link;
  }

  get isOpen(): boolean {
    return this.link === 'open';
  }

  pause(): void {
    if (this.link === 'open' && !this.servicePaused) {
      this.servicePaused = true;
      this.stream.sendEvent('PAUSE');
    }
  }

  /** Running again: RESUME after our PAUSE, or a fresh connection after an ABORT. */
  resume(): void {
    if (this.aborted) this.connectAfterAbort();
    else if (this.servicePaused) this.stream.sendEvent('RESUME');
    this.servicePaused = false;
  }

  keepAlive(): void {
    if (this.link === 'open' && this.servicePaused) this.stream.sendEvent('KEEP_ALIVE');
  }

  /** ABORT for the pause limit: the session stays resumable and connectAfterAbort() continues it. */
  abort(): void {
    if (this.aborted) return;
    // Set before abort(), which may report 'closed' synchronously. The ABORT discards queued
    // events, and the next connection starts running.
    this.servicePaused = false;
    this.link = 'closed';
    const pending = { done: Promise.resolve(), settled: false, connectWhenSettled: false };
    this.aborted = pending;
    pending.done = this.stream
      .abort()
      .catch((error: unknown) => this.log.warn('recorder: abort failed', { error: String(error) }))
      .then(() => {
        pending.settled = true;
        if (pending.connectWhenSettled && this.aborted === pending) this.connectNow();
      });
  }

  /**
   * Connects again after our ABORT: now if it has settled, else as soon as it does (the old
   * socket must be gone first). Returns what to await before relying on the new connection.
   */
  connectAfterAbort(): Promise<void> | undefined {
    const pending = this.aborted;
    if (!pending) return undefined;
    if (pending.settled) {
      this.connectNow();
      return undefined;
    }
    pending.connectWhenSettled = true;
    return pending.done;
  }

  /** Forget a connect promised after an ABORT (the recording was cancelled or failed). */
  dropPendingConnect(): void {
    if (this.aborted) this.aborted.connectWhenSettled = false;
  }

  /** Applies a change from the stream; `paused` says whether the recording is paused now. */
  apply(change: StreamLinkChange, paused: boolean): LinkVerdict {
    if (this.aborted) {
      if (change.state === 'closed') return 'changed';
      // Nothing should come from a connection we ABORTed before we connect again.
      this.log.warn('recorder: link change while aborted, ignored', { state: change.state });
      return 'ignored';
    }
    const wasOpen = this.link === 'open';
    this.link = change.state;
    if (change.state === 'closed') return 'unexpected-close';
    if (change.state === 'open' && !wasOpen && paused) {
      // A new connection runs at the service: state the pause again.
      this.servicePaused = true;
      this.stream.sendEvent('PAUSE');
    }
    return 'changed';
  }

  /** Keeps track of the link without acting on it (before start, after the end). */
  observe(change: StreamLinkChange): void {
    this.link = change.state;
  }

  private connectNow(): void {
    this.aborted = null;
    this.stream.connect();
  }
}
