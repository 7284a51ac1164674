/** Where one record of a spool is on disk. */
export interface RecordPosition {
  /** Offset of the record's first audio byte in the visit's audio. */
  offset: number;
  /** Audio bytes in the record. */
  length: number;
  /** Index of the record's segment in the manifest's `segments`. */
  segment: number;
  /** Byte position of the record in its segment file. */
  position: number;
}

/**
 * The records of a spool in offset order, without gaps: four numbers per record in typed arrays
 * (24 bytes per 100 ms append, about 1 MB for an hour) and never the audio itself.
 */
export interface SpoolIndex {
  /** Records indexed. */
  readonly count: number;
  /** The offset just after the last record (0 when empty). */
  readonly end: number;
  /** Adds the record that follows the last one (its offset must be `end`). */
  add(record: RecordPosition): void;
  /** The record number holding the audio byte at `offset`, or -1 outside [0, end). */
  find(offset: number): number;
  at(record: number): RecordPosition;
  /** An independent index with the same records, to grow on its own. */
  copy(): SpoolIndex;
}

interface Columns {
  offsets: Float64Array;
  positions: Float64Array;
  lengths: Uint32Array;
  segments: Uint32Array;
  count: number;
}

const emptyColumns = (capacity: number): Columns => ({
  offsets: new Float64Array(capacity),
  positions: new Float64Array(capacity),
  lengths: new Uint32Array(capacity),
  segments: new Uint32Array(capacity),
  count: 0,
});

export function createSpoolIndex(): SpoolIndex {
  return indexOver(emptyColumns(1_024));
}

function indexOver(columns: Columns): SpoolIndex {
  let c = columns;

  const grow = () => {
    const bigger = emptyColumns(c.offsets.length * 2);
    bigger.offsets.set(c.offsets);
    bigger.positions.set(c.positions);
    bigger.lengths.set(c.lengths);
    bigger.segments.set(c.segments);
    bigger.count = c.count;
    c = bigger;
  };

  const end = () => (c.count === 0 ? 0 : c.offsets[c.count - 1]! + c.lengths[c.count - 1]!);

  return {
    get count() {
      return c.count;
    },
    get end() {
      return end();
    },
    add(record) {
      // Reads find a byte by its offset: a gap or an overlap would send audio at the wrong place.
      if (record.offset !== end()) {
        throw new RangeError(`record at offset ${record.offset} does not follow the index's end ${end()}`);
      }
      if (c.count === c.offsets.length) grow();
      c.offsets[c.count] = record.offset;
      c.positions[c.count] = record.position;
      c.lengths[c.count] = record.length;
      c.segments[c.count] = record.segment;
      c.count += 1;
    },
    find(offset) {
      if (offset < 0 || offset >= end()) return -1;
      let lo = 0;
      let hi = c.count - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (c.offsets[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      return lo;
    },
    at(record) {
      if (record < 0 || record >= c.count) throw new RangeError(`no record ${record} in the index`);
      return {
        offset: c.offsets[record]!,
        length: c.lengths[record]!,
        segment: c.segments[record]!,
        position: c.positions[record]!,
      };
    },
    copy() {
      const same = emptyColumns(c.offsets.length);
      same.offsets.set(c.offsets);
      same.positions.set(c.positions);
      same.lengths.set(c.lengths);
      same.segments.set(c.segments);
      same.count = c.count;
      return indexOver(same);
    },
  };
}
