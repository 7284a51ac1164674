import { AUDIO_FORMAT } from '../limits';

/**
 * The service takes audio faster than real time (a client draining a backlog) but caps at 4×.
 * A token bucket of audio bytes: over the cap, the stream stops reading from the socket for a
 * while (TCP pushes back on the client); nothing is dropped.
 */
export function createAudioRateLimiter(timeScale: number, now: () => number = Date.now) {
  // 4 × 32,000 bytes per service second; a service second lasts timeScale wall seconds.
  const bytesPerMs = (AUDIO_FORMAT.maxRealtimeFactor * AUDIO_FORMAT.bytesPerSecond) / 1000 / timeScale;
  const burst = AUDIO_FORMAT.bytesPerSecond * 2;
  let credit = burst;
  let last = now();
  return {
    /** Takes `bytes`; returns how many ms the reader should wait before the next frame (0 = none). */
    take(bytes: number): number {
      const t = now();
      credit = Math.min(burst, credit + (t - last) * bytesPerMs);
      last = t;
      credit -= bytes;
      return credit >= 0 ? 0 : Math.ceil(-credit / bytesPerMs);
    },
  };
}
