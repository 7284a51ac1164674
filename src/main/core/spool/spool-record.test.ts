import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openRecord, sealRecord } from './spool-record';

describe('a spool record', () => {
  const audio = randomBytes(3_200);

  it('opens with its key and visit only, however many records the key sealed before', () => {
    const key = randomBytes(32);
    const records = [0, 3_200, 6_400].map((offset) => sealRecord(key, 'visit-1', offset, audio));
    for (const [k, record] of records.entries()) {
      expect(openRecord(key, 'visit-1', record, 0)).toMatchObject({
        kind: 'record',
        offset: k * 3_200,
        audio,
      });
    }
    expect(openRecord(key, 'visit-2', records[0]!, 0)).toMatchObject({ kind: 'unreadable' });
    expect(openRecord(randomBytes(32), 'visit-1', records[0]!, 0)).toMatchObject({ kind: 'unreadable' });
  });

  it('uses a key changed in place as it is now, never as it was (the key objects are kept per key)', () => {
    const key = randomBytes(32);
    const before = Buffer.from(key);
    const first = sealRecord(key, 'visit-1', 0, audio);
    key.set(randomBytes(32));
    const second = sealRecord(key, 'visit-1', 3_200, audio);
    expect(openRecord(key, 'visit-1', second, 0)).toMatchObject({ kind: 'record', audio });
    expect(openRecord(before, 'visit-1', second, 0)).toMatchObject({ kind: 'unreadable' });
    expect(openRecord(key, 'visit-1', first, 0)).toMatchObject({ kind: 'unreadable' });
    expect(openRecord(before, 'visit-1', first, 0)).toMatchObject({ kind: 'record', audio });
  });
});
