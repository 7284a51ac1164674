/**
 * The outgoing audio log: every byte the recorder appended, addressed by its offset from the start
 * of the session's audio. It is the only copy the stream client keeps; the client reads from it to
 * send, and reads again from the service's resume point after a reconnect. A later issue replaces
 * the in-memory log with an encrypted on-disk spool behind this same interface.
 */
export interface AudioLog {
  /** Adds bytes at the end (offset `length` before the call). The log keeps its own copy. */
  append(pcm: Uint8Array): void;
  /**
   * Up to `max` bytes starting at offset `from` (fewer only at the end of the log). The result may
   * share memory with the log: callers use it at once and never keep or change it.
   */
  read(from: number, max: number): Uint8Array;
  /** Total bytes appended since the session started (released bytes still count). */
  readonly length: number;
  /**
   * Bytes the service was known to have when an earlier run of the app stopped (a spool keeps
   * it): against a service without ACK, a restarted app resumes there rather than from 0.
   */
  readonly confirmed?: number;
  /**
   * The service has every byte before `upTo` (its ACK): the log may free them. Reading below the
   * released offset afterwards throws. Optional: a spool may keep everything until the session ends.
   */
  release?(upTo: number): void;
}

interface Piece {
  start: number;
  bytes: Uint8Array;
}

/** The log in memory: one piece per append, freed piece by piece as the service acknowledges. */
export function createMemoryAudioLog(): AudioLog {
  // Pieces in offset order; `first` skips released ones without shifting the array each time.
  let pieces: Piece[] = [];
  let first = 0;
  let length = 0;

  const pieceAt = (offset: number): number => {
    let lo = first;
    let hi = pieces.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((pieces[mid] as Piece).start <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  return {
    append(pcm) {
      if (pcm.length === 0) return;
      // Copy: capture pipelines reuse their buffers, and this is the one copy that must survive.
      pieces.push({ start: length, bytes: Uint8Array.from(pcm) });
      length += pcm.length;
    },
    read(from, max) {
      const end = Math.min(length, from + max);
      if (from >= end) return new Uint8Array(0);
      const oldest = pieces[first];
      if (!oldest || from < oldest.start) {
        throw new RangeError(
          `audio before offset ${oldest?.start ?? length} was released; asked for ${from}`,
        );
      }
      let index = pieceAt(from);
      const piece = pieces[index] as Piece;
      // The common case (one 100 ms append per chunk) needs no copy at all.
      if (end <= piece.start + piece.bytes.length) {
        return piece.bytes.subarray(from - piece.start, end - piece.start);
      }
      const out = new Uint8Array(end - from);
      let offset = from;
      while (offset < end) {
        const p = pieces[index] as Piece;
        const slice = p.bytes.subarray(offset - p.start, Math.min(p.bytes.length, end - p.start));
        out.set(slice, offset - from);
        offset += slice.length;
        index += 1;
      }
      return out;
    },
    get length() {
      return length;
    },
    release(upTo) {
      while (first < pieces.length) {
        const p = pieces[first] as Piece;
        if (p.start + p.bytes.length > upTo) break;
        first += 1;
      }
      // Compact now and then so a long visit does not keep a long array of holes.
      if (first > 1024 && first * 2 > pieces.length) {
        pieces = pieces.slice(first);
        first = 0;
      }
    },
  };
}
