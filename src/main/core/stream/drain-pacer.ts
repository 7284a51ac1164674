import { BYTES_PER_SECOND, CHUNK_BYTES, MIN_CHUNK_BYTES } from './frame-plan';

export interface DrainPacer {
  /**
   * Asks to send `bytes` of audio now. Returns 0 and counts them when allowed, otherwise how many
   * ms to wait before asking again (nothing is counted then).
   */
  take(bytes: number, now: number): number;
  /** A new connection starts with a full allowance (the service's allowance is per connection). */
  reset(now: number): void;
}

/**
 * A token bucket over audio bytes: at most `factor` × real time, with a small burst.
 *
 * protocol: Audio stream (the service caps at 4× real time; the sandbox allows a 2 s burst and then
 * holds back reading). Staying under the cap ourselves keeps the socket's buffers short, so live
 * audio is not stuck behind megabytes the service will only read later.
 *
 * In steady state the recorder appends 100 ms every 100 ms and the bucket refills `factor` times
 * faster than that, so each chunk goes out the moment it is appended; only a backlog is paced.
 */
export function createDrainPacer(factor: number, burstMs = 500): DrainPacer {
  const bytesPerMs = (factor * BYTES_PER_SECOND) / 1000;
  // Never below the largest chunk the frame plan cuts, or such a chunk could never go out.
  const burst = Math.max(CHUNK_BYTES + MIN_CHUNK_BYTES, (BYTES_PER_SECOND * burstMs) / 1000);
  let credit = burst;
  let last = 0;
  let started = false;
  return {
    take(bytes, now) {
      if (!started) {
        started = true;
        last = now;
      }
      credit = Math.min(burst, credit + Math.max(0, now - last) * bytesPerMs);
      last = now;
      if (credit >= bytes) {
        credit -= bytes;
        return 0;
      }
      return Math.max(1, Math.ceil((bytes - credit) / bytesPerMs));
    },
    reset(now) {
      credit = burst;
      last = now;
      started = true;
    },
  };
}
