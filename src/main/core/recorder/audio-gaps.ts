/**
 * The visit's time with no audio while its capturing page was replaced (a reload, a renderer that
 * died): issue 37 shows it and keeps it in the visit's record. A gap runs from the old capture's
 * last chunk to the new capture's first, less that chunk's own length, or to End when none came.
 * Times are the recorder's clock, in ms.
 */
export class AudioGaps {
  /** The visit's time without audio so far. */
  missingMs = 0;
  /** When the last chunk came. */
  private lastChunkAt: number | null = null;
  /** When the capture before the one awaited last sent a chunk; null when no gap is open. */
  private openSince: number | null = null;
  /** A new capture joined since the gap opened (recorder.attach): only its first chunk closes it. */
  private captureReplaced = false;

  /**
   * The capturing page went away. The gap opens here, not at the rejoin: End may come before the
   * new page attaches (it shows End as soon as main's events reach it, before its own
   * recorder.state comes back), and the record must still say how long the visit went without
   * audio (issue 36).
   */
  detached(): void {
    this.openSince ??= this.lastChunkAt;
  }

  /**
   * A new capture joins. Usually the gap opened at the detach already; a renderer that crashed may
   * not have said goodbye. Before any chunk of the visit there is no gap.
   */
  attached(): void {
    this.captureReplaced = true;
    this.openSince ??= this.lastChunkAt;
  }

  /** A chunk of `ms` audio arrived at `now`. */
  chunk(now: number, ms: number): void {
    if (this.openSince !== null) {
      // The same capture sending on means the page that went away was another one (a second tab
      // in browser mode): nothing was missed.
      if (this.captureReplaced) this.missingMs += Math.max(0, Math.round(now - this.openSince - ms));
      this.openSince = null;
      this.captureReplaced = false;
    }
    this.lastChunkAt = now;
  }

  /**
   * End at `now`. Ended after a reload before the new page sent anything (End pressed while its
   * microphone was still opening, or before it attached): the time since the old page's last
   * chunk had no audio, kept as a gap the new page's first chunk closes is.
   */
  ended(now: number): void {
    if (this.openSince === null) return;
    this.missingMs += Math.max(0, Math.round(now - this.openSince));
    this.openSince = null;
  }
}
