/**
 * Chunks whose lateness the page-clock estimate remembers: 5 s. Enough for a chunk that completes
 * right at the end of a callback to be among them (one in four or so at 16 ms callbacks), short
 * enough that drift between the device's clock and the page's (tens of ppm) moves it by well under
 * a ms.
 */
const REMEMBERED_CHUNKS = 50;
/**
 * Chunks before the clock says anything: a second. Until then every chunk may have waited on a busy
 * page (the voice model loading while a rejoined visit's microphone is already open), and a latency
 * read off them alone would put End too early and cut audio from before the press.
 */
const CHUNKS_BEFORE_KNOWN = 10;

/**
 * Milliseconds of audio the microphone has delivered so far, on its own clock
 * (MediaStreamTrack.stats.deliveredFramesDuration); undefined where the engine does not count.
 */
export type DeliveredAudio = () => number | undefined;

/**
 * The capture clock: how much input the microphone had delivered at a moment, as frames of the
 * worklet's input, so that End takes every sample heard up to the press and none after it.
 *
 * Between the microphone and the worklet the audio waits in the capture path: Web Audio's input
 * FIFO, then the callback that renders it. On a quiet machine that is a callback (16 ms); on a busy
 * one the FIFO holds up to half a second (issue 37: End lost the last 0.55 s that was still in it).
 *
 * Where the engine counts what the microphone delivered (Chromium's track stats), the clock reads
 * that count: every chunk's end is compared with the count when it arrives, and the least
 * difference over the capture is the count of audio delivered before the worklet's first frame.
 * At a press, the count then less that offset is the input frame End must reach, however much of
 * it is still in the path. Both sides are the device's own clock, so the page's thread being late
 * only makes a difference larger (never picked as the least) and nothing drifts. A gap Web Audio
 * filled with zeros moves the offset down, and the least follows it at once.
 *
 * Elsewhere it falls back to the page's clock: the least delay between a chunk's last sample and
 * its arrival over the last chunks is the capture's own latency. That cannot see a backlog that
 * stood through all of them.
 */
export class CaptureClock {
  /** Arrival time − capture time of the last sample (ms), per remembered chunk. */
  private readonly lateness = new Float64Array(REMEMBERED_CHUNKS).fill(Number.POSITIVE_INFINITY);
  private next = 0;
  private arrived = 0;
  /** Least of (delivered audio − input captured) in ms, over the capture; Infinity until counted. */
  private deliveredBeforeInput = Number.POSITIVE_INFINITY;

  constructor(private delivered: DeliveredAudio = () => undefined) {}

  /** The microphone whose delivered audio the clock reads (known once it opens). */
  useMicrophone(delivered: DeliveredAudio): void {
    this.delivered = delivered;
  }

  /** A full chunk reached the page at `atMs` (performance.now()); its last sample is at `endTimeS` of input. */
  chunkArrived(atMs: number, endTimeS: number): void {
    this.lateness[this.next] = atMs - endTimeS * 1_000;
    this.next = (this.next + 1) % REMEMBERED_CHUNKS;
    this.arrived++;
    const deliveredMs = this.delivered();
    if (deliveredMs !== undefined) {
      this.deliveredBeforeInput = Math.min(this.deliveredBeforeInput, deliveredMs - endTimeS * 1_000);
    }
  }

  /**
   * Input frames (at `rate` Hz) the microphone had delivered at `atMs`, which is now (the press):
   * undefined in a capture's first second, when neither offset is known yet (End then sends what
   * the worklet has).
   */
  framesAt(atMs: number, rate: number): number | undefined {
    if (this.arrived < CHUNKS_BEFORE_KNOWN) return undefined;
    const deliveredMs = this.delivered();
    if (deliveredMs !== undefined && Number.isFinite(this.deliveredBeforeInput)) {
      return Math.max(0, Math.round(((deliveredMs - this.deliveredBeforeInput) / 1_000) * rate));
    }
    let least = Number.POSITIVE_INFINITY;
    for (const ms of this.lateness) least = Math.min(least, ms);
    return Math.max(0, Math.round(((atMs - least) / 1_000) * rate));
  }
}
