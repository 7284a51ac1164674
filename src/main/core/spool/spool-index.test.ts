import { describe, expect, it } from 'vitest';
import { createSpoolIndex } from './spool-index';

/** Records of 1..7 bytes, 3 to a segment, positioned as in a segment file. */
function filled(count: number) {
  const index = createSpoolIndex();
  const records = [];
  for (let n = 0, offset = 0; n < count; n++) {
    const record = { offset, length: 1 + (n % 7), segment: Math.floor(n / 3), position: (n % 3) * 100 };
    index.add(record);
    records.push(record);
    offset += record.length;
  }
  return { index, records };
}

describe('the spool index', () => {
  it('finds the record of any offset, past its first growth', () => {
    const { index, records } = filled(5_000);
    expect(index.count).toBe(5_000);
    const last = records.at(-1)!;
    expect(index.end).toBe(last.offset + last.length);
    const misplaced = records.filter(
      (record, n) => index.find(record.offset) !== n || index.find(record.offset + record.length - 1) !== n,
    );
    expect(misplaced).toEqual([]);
    expect(index.at(4_321)).toEqual(records[4_321]);
    expect(index.find(-1)).toBe(-1);
    expect(index.find(index.end)).toBe(-1);
  });

  it('refuses a record that leaves a gap or overlaps', () => {
    const { index } = filled(3);
    expect(() => index.add({ offset: index.end + 2, length: 4, segment: 1, position: 0 })).toThrow(
      RangeError,
    );
    expect(() => index.add({ offset: index.end - 1, length: 4, segment: 1, position: 0 })).toThrow(
      RangeError,
    );
  });

  it('a copy grows on its own', () => {
    const { index } = filled(10);
    const copy = index.copy();
    copy.add({ offset: copy.end, length: 2, segment: 9, position: 0 });
    expect([copy.count, index.count]).toEqual([11, 10]);
    expect(index.end).toBe(copy.end - 2);
  });
});
