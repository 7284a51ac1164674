import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { SpoolIndex } from './spool-index';
import { openRecord, recordBytes } from './spool-record';

/** What a reader needs to find and open a spool's records; `segmentName` may grow as it writes. */
export interface SpoolSource {
  dir: string;
  key: Uint8Array;
  sessionId: string;
  index: SpoolIndex;
  segmentName(segment: number): string;
}

export interface SpoolReader {
  /**
   * Up to `max` bytes of the visit's audio from offset `from` (fewer only at the index's end),
   * decrypted from the records that cover them. Throws when a record cannot be read back.
   */
  read(from: number, max: number): Uint8Array;
  /** Closes the file it keeps open (never throws); a later read opens it again. */
  close(): void;
}

/**
 * Reads audio back from a spool's segment files, one record at a time. It keeps the last segment
 * it read open (a sender reads along, mostly from the segment being written, which is readable
 * through its own descriptor while the writer appends) and no audio at all.
 */
export function createSpoolReader(source: SpoolSource): SpoolReader {
  const { index } = source;
  let open: { segment: number; fd: number } | undefined;
  // Sealed bytes land here before they are decrypted; it grows to the largest record read.
  let scratch = Buffer.alloc(0);

  const close = () => {
    if (!open) return;
    const { fd } = open;
    open = undefined;
    try {
      closeSync(fd);
    } catch {
      // Nothing was written through it, so nothing can be lost by a failed close.
    }
  };

  const fdFor = (segment: number): number => {
    if (open?.segment === segment) return open.fd;
    close();
    const fd = openSync(join(source.dir, source.segmentName(segment)), 'r');
    open = { segment, fd };
    return fd;
  };

  const audioOf = (record: number): { offset: number; audio: Buffer } => {
    const at = index.at(record);
    const bytes = recordBytes(at.length);
    if (scratch.length < bytes) scratch = Buffer.alloc(bytes);
    const fd = fdFor(at.segment);
    let got = 0;
    while (got < bytes) {
      const n = readSync(fd, scratch, got, bytes - got, at.position + got);
      if (n === 0) break;
      got += n;
    }
    const where = `${source.segmentName(at.segment)} at byte ${at.position}`;
    const opened = openRecord(source.key, source.sessionId, scratch.subarray(0, got), 0);
    if (opened.kind !== 'record') {
      throw new Error(`spooled audio at offset ${at.offset} cannot be read back (${where}: ${opened.kind})`);
    }
    // The sealed header carries the offset, so a record read from the wrong place cannot pass.
    if (opened.offset !== at.offset || opened.audio.length !== at.length) {
      throw new Error(`spooled audio at offset ${at.offset} is not where the index says (${where})`);
    }
    return { offset: at.offset, audio: opened.audio };
  };

  return {
    read(from, max) {
      if (!Number.isSafeInteger(from) || from < 0 || !(max >= 0)) {
        throw new RangeError(`cannot read ${max} bytes of spooled audio from offset ${from}`);
      }
      const end = Math.min(index.end, from + max);
      if (from >= end) return new Uint8Array(0);
      let record = index.find(from);
      const first = audioOf(record);
      const firstEnd = first.offset + first.audio.length;
      // The common case (reads along 100 ms appends) is one record and no copy.
      if (end <= firstEnd) return first.audio.subarray(from - first.offset, end - first.offset);
      const out = new Uint8Array(end - from);
      out.set(first.audio.subarray(from - first.offset));
      let at = firstEnd;
      while (at < end) {
        record += 1;
        const { audio } = audioOf(record);
        const piece = audio.subarray(0, Math.min(audio.length, end - at));
        out.set(piece, at - from);
        at += piece.length;
      }
      return out;
    },
    close,
  };
}
