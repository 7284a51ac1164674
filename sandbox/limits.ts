/**
 * The service's limits and timers, in real milliseconds at time scale 1. `--time-scale X`
 * multiplies every duration here by X (0.01 turns the 25 s idle rule into 250 ms), so tests can
 * exercise each timer in seconds. Sources: spec "Limits" and docs/protocol.md.
 */
export const SERVICE_LIMITS = {
  // protocol: Authentication (token lifetime 1 hour)
  tokenLifetimeMs: 60 * 60 * 1000,
  // protocol: Audio stream (4008 after 25 s without AUDIO while not paused)
  idleAudioMs: 25_000,
  // protocol: Audio stream (the 5 s KEEP_ALIVE rule plus 1 s of grace)
  keepAliveDeadlineMs: 6_000,
  // protocol: Audio stream (4009 after 30 min paused)
  maxPauseMs: 30 * 60 * 1000,
  // protocol: Notifications (retries: timeout 5 s, backoff from 1 s, up to 5 times)
  webhookTimeoutMs: 5_000,
  webhookFirstBackoffMs: 1_000,
  /** How long note generation takes after end (the sandbox's choice; scaled too). */
  processingDelayMs: 1_500,
  /** How often ACK is sent while audio flows (protocol: "at least once a second"). */
  ackIntervalMs: 500,
} as const;

/** Counts, not durations: never scaled. */
export const SERVICE_COUNTS = {
  // protocol: Notifications (retries non-2xx and timeouts up to 5 times)
  webhookMaxRetries: 5,
} as const;

/** Not durations, so not scaled. */
export const AUDIO_FORMAT = {
  sampleRate: 16_000,
  bytesPerSample: 2,
  /** 16 kHz × 2 bytes. */
  bytesPerSecond: 32_000,
  // protocol: Audio stream (chunks: the service accepts 20–1,000 ms)
  minChunkMs: 20,
  maxChunkMs: 1_000,
  // protocol: Audio stream (caps at 4× real time)
  maxRealtimeFactor: 4,
} as const;

export type LimitName = keyof typeof SERVICE_LIMITS;

/** Durations after `--time-scale`. */
export interface Timing {
  readonly scale: number;
  ms(name: LimitName): number;
  /** Scales any other real duration. */
  scaled(realMs: number): number;
}

/**
 * `overrides` replace single limits (in real ms, before scaling) so a test can make one timer short
 * while the others stay comfortable, e.g. a 1.5 s pause limit with a 600 ms keep-alive deadline.
 */
export function createTiming(scale = 1, overrides: Partial<Record<LimitName, number>> = {}): Timing {
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new Error(
      `--time-scale must be a positive number (0.01 makes every timer 100 times shorter); got ${scale}`,
    );
  }
  return {
    scale,
    ms: (name) => (overrides[name] ?? SERVICE_LIMITS[name]) * scale,
    scaled: (realMs) => realMs * scale,
  };
}
