import type { Clock } from '../ports';

/** At most one pending timer from the injected clock; setting it again replaces the old one. */
export class TimerSlot {
  private cancel: (() => void) | null = null;

  constructor(private readonly clock: Clock) {}

  after(ms: number, fn: () => void): void {
    this.clear();
    const cancel = this.clock.after(ms, () => {
      if (this.cancel === cancel) this.cancel = null;
      fn();
    });
    this.cancel = cancel;
  }

  every(ms: number, fn: () => void): void {
    this.clear();
    this.cancel = this.clock.every(ms, fn);
  }

  clear(): void {
    const cancel = this.cancel;
    this.cancel = null;
    cancel?.();
  }

  get pending(): boolean {
    return this.cancel !== null;
  }
}

/**
 * The two clocks of a pause, both started when the pause starts: the KEEP_ALIVE heartbeat (the
 * service closes a paused stream that goes 5 s without one) and the pause limit (the service closes
 * a stream paused for 30 min, so the recorder ABORTs a little earlier and resumes cleanly later).
 * Turning an auto-pause into a manual one keeps both running: the service sees one pause.
 */
export class PauseTimers {
  private readonly keepAlive: TimerSlot;
  private readonly limit: TimerSlot;

  constructor(
    clock: Clock,
    private readonly timing: { keepAliveEveryMs: number; abortPauseAfterMs: number },
    private readonly handlers: { onKeepAlive: () => void; onPauseLimit: () => void },
  ) {
    this.keepAlive = new TimerSlot(clock);
    this.limit = new TimerSlot(clock);
  }

  start(): void {
    this.keepAlive.every(this.timing.keepAliveEveryMs, this.handlers.onKeepAlive);
    this.limit.after(this.timing.abortPauseAfterMs, this.handlers.onPauseLimit);
  }

  stop(): void {
    this.keepAlive.clear();
    this.limit.clear();
  }
}

/**
 * Notices that the microphone stopped delivering (unplugged, OS sleep, a crashed worklet): without
 * audio the service would cut the stream after 25 s, so the recorder pauses instead. Re-armed by
 * every chunk while the recorder is sending.
 */
export class CaptureWatchdog {
  private readonly slot: TimerSlot;

  constructor(
    clock: Clock,
    private readonly stallMs: number,
    private readonly onStall: () => void,
  ) {
    this.slot = new TimerSlot(clock);
  }

  /** Waits `withinMs` (the stall time unless given) for the next chunk. */
  arm(withinMs = this.stallMs): void {
    this.slot.after(withinMs, this.onStall);
  }

  disarm(): void {
    this.slot.clear();
  }
}
