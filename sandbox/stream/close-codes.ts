// protocol: Audio stream (server close codes)
export const CLOSE = {
  /** After EOF, CANCEL, ABORT, or when the session is ended while the stream is open. */
  normal: 1000,
  /** Binary frames, unknown message types, unknown events. */
  unsupported: 1003,
  /** An AUDIO message whose data is not base64 LINEAR16 of 20–1,000 ms (sandbox choice, docs/protocol.md). */
  invalidAudio: 1007,
  /** A newer connection to the same session replaced this one (sandbox choice: a reconnect wins over a half-open socket). */
  replaced: 4000,
  /** The token the stream was opened with expired. */
  tokenExpired: 4001,
  /** 25 s without AUDIO while not paused, or 6 s paused without KEEP_ALIVE. */
  timeout: 4008,
  /** 30 min paused, even with KEEP_ALIVE arriving. */
  pauseLimit: 4009,
} as const;
