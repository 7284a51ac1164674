/**
 * Chunks whose lateness the clock remembers: 5 s. Enough for a chunk that completes right at the
 * end of a callback to be among them (one in four or so at 16 ms callbacks), short enough that
 * drift between the device's clock and the page's (tens of ppm) moves it by well under a ms.
 */
const REMEMBERED_CHUNKS = 50;
/**
 * Chunks before the clock says anything: a second. Until then every chunk may have waited on a busy
 * page (the voice model loading while a rejoined visit's microphone is already open), and a latency
 * read off them alone would put End too early and cut audio from before the press.
 */
const CHUNKS_BEFORE_KNOWN = 10;

/**
 * The capture clock: how much input had been captured at a moment of the page's clock, so that End
 * takes every sample captured up to the press and none after it. A chunk reaches the page some time
 * after its last sample was captured: up to a callback (16 ms) later, as input waits in Web Audio's
 * FIFO for the callback that renders it, and later still when the page's thread is busy. The least
 * of those delays over the last chunks is the capture's own latency: the audio captured by a moment
 * is all the input up to that moment less that latency. The end-tail test measures End against the
 * same clock (e2e/support/page-sends.ts).
 */
export class CaptureClock {
  /** Arrival time − capture time of the last sample (ms), per remembered chunk. */
  private readonly lateness = new Float64Array(REMEMBERED_CHUNKS).fill(Number.POSITIVE_INFINITY);
  private next = 0;
  private arrived = 0;

  /** A full chunk reached the page at `atMs` (performance.now()); its last sample is at `endTimeS` of input. */
  chunkArrived(atMs: number, endTimeS: number): void {
    this.lateness[this.next] = atMs - endTimeS * 1_000;
    this.next = (this.next + 1) % REMEMBERED_CHUNKS;
    this.arrived++;
  }

  /**
   * Input frames (at `rate` Hz) captured by `atMs`; undefined in a capture's first second, when
   * the latency is not known yet (End then sends what the worklet has, none of it cut).
   */
  framesAt(atMs: number, rate: number): number | undefined {
    if (this.arrived < CHUNKS_BEFORE_KNOWN) return undefined;
    let least = Number.POSITIVE_INFINITY;
    for (const ms of this.lateness) least = Math.min(least, ms);
    return Math.max(0, Math.round(((atMs - least) / 1_000) * rate));
  }
}
