import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ACKED_SAVE_STEP_BYTES,
  SpoolKeyError,
  continueAudioSpool,
  createAudioSpool,
  listAudioSpools,
  readRecoveredAudio,
  recoverAudioSpool,
  sweepAudioSpools,
  type RecoveredSpool,
  type SpoolOptions,
} from './audio-spool';
import { recordBytes } from './spool-record';

const CHUNK = 3_200;
const key = randomBytes(32);

/** 100 ms chunks of distinct, recognisable bytes. */
const chunk = (n: number) => Buffer.alloc(CHUNK, n % 251);

function options(overrides: Partial<SpoolOptions> = {}): SpoolOptions {
  return {
    dir: join(mkdtempSync(join(tmpdir(), 'scribe-spool-')), 'visit'),
    key,
    sessionId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
    encounterId: 'bed12',
    kind: 'ambient',
    segmentAudioBytes: CHUNK * 10,
    ...overrides,
  };
}

function write(o: SpoolOptions, chunks: number) {
  const spool = createAudioSpool(o);
  for (let n = 0; n < chunks; n++) spool.append(chunk(n));
  return spool;
}

const segments = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.spool'))
    .sort();
/** Every recovered byte, read back from the segment files. */
const joined = (dir: string, recovered: RecoveredSpool) => readRecoveredAudio(dir, key, recovered);
const expected = (from: number, to: number) =>
  Buffer.concat(Array.from({ length: to - from }, (_, k) => chunk(from + k)));

describe('the audio spool', () => {
  it('gives back every byte appended, in order, across segments, after a reopen', () => {
    const o = options();
    const spool = write(o, 25);
    spool.close();
    expect(segments(o.dir)).toEqual(['segment-000001.spool', 'segment-000002.spool', 'segment-000003.spool']);
    const recovered = recoverAudioSpool(o.dir, key);
    expect(recovered.problems).toEqual([]);
    expect(recovered.length).toBe(25 * CHUNK);
    expect(joined(o.dir, recovered).equals(expected(0, 25))).toBe(true);
    expect(recovered.manifest).toMatchObject({ encounterId: 'bed12', state: 'recording' });
  });

  it('keeps nothing readable on disk: no audio in the clear, owner-only files', () => {
    const o = options();
    const loud = Buffer.alloc(CHUNK, 0x5a);
    const spool = createAudioSpool(o);
    spool.append(loud);
    spool.close();
    const file = join(o.dir, 'segment-000001.spool');
    expect(readFileSync(file).includes(loud.subarray(0, 64))).toBe(false);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(statSync(join(o.dir, 'manifest.json')).mode & 0o077).toBe(0);
  });

  it('recovers what a killed app had written without closing anything (no fsync, no manifest update)', () => {
    const o = options();
    write(o, 15); // never closed: the second segment is still open
    const recovered = recoverAudioSpool(o.dir, key);
    expect(recovered.problems).toEqual([]);
    expect(joined(o.dir, recovered).equals(expected(0, 15))).toBe(true);
  });

  it('saves what the service has every 5 s of audio, so a killed app knows it without closing anything', () => {
    // A long segment: no segment change saves the manifest in between.
    const o = options({ segmentAudioBytes: CHUNK * 1_000 });
    const spool = write(o, 120);
    spool.noteAcked(ACKED_SAVE_STEP_BYTES - CHUNK);
    expect(recoverAudioSpool(o.dir, key).manifest.ackedOffset).toBe(0);
    spool.noteAcked(ACKED_SAVE_STEP_BYTES);
    expect(recoverAudioSpool(o.dir, key).manifest.ackedOffset).toBe(ACKED_SAVE_STEP_BYTES);
    spool.noteAcked(2 * ACKED_SAVE_STEP_BYTES - CHUNK);
    // Killed here (never closed): the next run resumes a service without ACK from the last save.
    const recovered = recoverAudioSpool(o.dir, key);
    expect(recovered.manifest.ackedOffset).toBe(ACKED_SAVE_STEP_BYTES);
    expect(continueAudioSpool(o, recovered).ackedOffset).toBe(ACKED_SAVE_STEP_BYTES);
  });

  it('keeps the visit clock of the audio sent as soon as it gains a stretch, for the next run', () => {
    // A long segment: no segment change saves the manifest in between.
    const o = options({ segmentAudioBytes: CHUNK * 1_000 });
    const spool = write(o, 5);
    // None kept yet (as in an older spool): the transcript would keep the service's times.
    expect(spool.visitClock).toBeUndefined();
    expect(recoverAudioSpool(o.dir, key).manifest.visitClock).toBeUndefined();
    const clock = [
      { sentStartMs: 0, visitStartMs: 0 },
      { sentStartMs: 500, visitStartMs: 1_400 },
    ];
    expect(spool.setVisitClock(clock)).toBe(true);
    spool.append(chunk(5));
    // Killed here (never closed): the clock is on disk already, and a continued spool has it.
    const recovered = recoverAudioSpool(o.dir, key);
    expect(recovered.manifest.visitClock).toEqual(clock);
    expect(continueAudioSpool(o, recovered).visitClock).toEqual(clock);

    // A clock that does not read as one costs only the clock, not the manifest of the visit's audio.
    const manifestPath = join(o.dir, 'manifest.json');
    const saved = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifestPath, JSON.stringify({ ...saved, visitClock: [{ sentStartMs: 'x' }] }));
    const damaged = recoverAudioSpool(o.dir, key);
    expect(damaged.manifest.visitClock).toBeUndefined();
    expect(damaged.length).toBe(6 * CHUNK);
  });

  it('drops a torn last record and recovers every complete one before it', () => {
    const o = options();
    write(o, 14);
    const last = join(o.dir, segments(o.dir).at(-1)!);
    // The crash cut the last write short.
    truncateSync(last, statSync(last).size - 100);
    const recovered = recoverAudioSpool(o.dir, key);
    expect(recovered.length).toBe(13 * CHUNK);
    expect(joined(o.dir, recovered).equals(expected(0, 13))).toBe(true);
    expect(recovered.problems).toEqual([
      `segment-000002.spool: torn tail dropped at byte ${3 * recordBytes(CHUNK)}`,
    ]);
  });

  it('continues a recovered spool in a new segment, with no gap and nothing twice', () => {
    const o = options();
    write(o, 14);
    const recovered = recoverAudioSpool(o.dir, key);
    const continued = continueAudioSpool(o, recovered);
    for (let n = 14; n < 20; n++) continued.append(chunk(n));
    continued.close();
    const again = recoverAudioSpool(o.dir, key);
    expect(again.problems).toEqual([]);
    expect(joined(o.dir, again).equals(expected(0, 20))).toBe(true);
  });

  it('refuses another key, and reports a damaged record instead of passing damaged audio on', () => {
    const o = options();
    write(o, 5).close();
    expect(() => recoverAudioSpool(o.dir, randomBytes(32))).toThrow(SpoolKeyError);

    const file = join(o.dir, 'segment-000001.spool');
    const bytes = readFileSync(file);
    bytes.writeUInt8(bytes.readUInt8(2 * recordBytes(CHUNK) + 100) ^ 0xff, 2 * recordBytes(CHUNK) + 100); // one damaged byte of audio in the third record
    writeFileSync(file, bytes);
    const recovered = recoverAudioSpool(o.dir, key);
    expect(recovered.length).toBe(2 * CHUNK);
    expect(recovered.problems).toEqual([
      `segment-000001.spool: unreadable record at byte ${2 * recordBytes(CHUNK)} (authentication failed)`,
    ]);
  });

  it('stops at a gap instead of passing later audio on at the wrong offset', () => {
    const o = options();
    write(o, 25).close();
    rmSync(join(o.dir, 'segment-000002.spool'));
    const recovered = recoverAudioSpool(o.dir, key);
    expect(recovered.length).toBe(10 * CHUNK);
    expect(joined(o.dir, recovered).equals(expected(0, 10))).toBe(true);
    expect(recovered.problems).toEqual([
      'segment-000002.spool: missing',
      `segment-000003.spool: audio from ${10 * CHUNK} to ${20 * CHUNK} is missing`,
    ]);
  });

  it('will not take a record from another visit’s spool', () => {
    const a = options();
    write(a, 2).close();
    const b = options({ sessionId: '9b2f1c4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f' });
    write(b, 2).close();
    // Someone pastes a's records after b's.
    appendFileSync(join(b.dir, 'segment-000001.spool'), readFileSync(join(a.dir, 'segment-000001.spool')));
    const recovered = recoverAudioSpool(b.dir, key);
    expect(recovered.length).toBe(2 * CHUNK);
    expect(recovered.problems).toHaveLength(1);
  });

  it('sends the chunk just appended from a copy of it, and reads every older one back from disk', () => {
    const o = options();
    const spool = write(o, 3);
    // Damage all three records on disk (one byte of audio each), as a failing disk would.
    const file = join(o.dir, 'segment-000001.spool');
    const bytes = readFileSync(file);
    for (let record = 0; record < 3; record++) {
      const at = record * recordBytes(CHUNK) + 100;
      bytes.writeUInt8(bytes.readUInt8(at) ^ 0xff, at);
    }
    writeFileSync(file, bytes);
    // The newest chunk, whole or in part, never comes from disk: it is what a live stream sends next.
    expect(Buffer.from(spool.read(2 * CHUNK, CHUNK)).equals(chunk(2))).toBe(true);
    expect(Buffer.from(spool.read(2 * CHUNK + 100, 10 * CHUNK)).equals(chunk(2).subarray(100))).toBe(true);
    // An older one does, and its damage is reported, not passed on.
    expect(() => spool.read(CHUNK, CHUNK)).toThrow(/cannot be read back/);
    // The copy is the spool's own: a caller reusing its buffer changes nothing sent.
    const reused = Buffer.from(chunk(3));
    spool.append(reused);
    reused.fill(0);
    expect(Buffer.from(spool.read(3 * CHUNK, CHUNK)).equals(chunk(3))).toBe(true);
    // Only that one chunk is held: the one before it is read from disk again, damage and all.
    expect(() => spool.read(2 * CHUNK, CHUNK)).toThrow(/cannot be read back/);
    // And a discarded visit gives nothing back, not even the chunk in memory.
    spool.discard();
    expect(() => spool.read(3 * CHUNK, CHUNK)).toThrow(/discarded/);
  });

  it('a discarded spool is deleted and takes no more audio', () => {
    const o = options();
    const spool = write(o, 3);
    spool.discard();
    spool.append(chunk(4));
    spool.setState('ended');
    spool.close();
    expect(listAudioSpools(join(o.dir, '..'))).toEqual([]);
  });

  it('retention: delivered audio goes after the grace period, anything after the age limit', () => {
    const root = mkdtempSync(join(tmpdir(), 'scribe-spools-'));
    let clock = 1_000_000;
    const make = (name: string, sessionId: string) => {
      const spool = write(options({ dir: join(root, name), sessionId, now: () => clock }), 1);
      spool.close();
      return spool;
    };
    const delivered = make('a', 'a');
    make('b', 'b'); // still recording (the app crashed): kept until the age limit
    clock += 1_000;
    delivered.setState('delivered');
    const week = 7 * 24 * 3_600_000;
    expect(sweepAudioSpools(root, clock + 59_000, { graceMs: 60_000, maxAgeMs: week })).toEqual([]);
    expect(sweepAudioSpools(root, clock + 60_000, { graceMs: 60_000, maxAgeMs: week })).toEqual(['a']);
    expect(listAudioSpools(root).map((s) => s.manifest.sessionId)).toEqual(['b']);
    expect(sweepAudioSpools(root, 1_000_000 + week, { graceMs: 60_000, maxAgeMs: week })).toEqual(['b']);
    expect(listAudioSpools(root)).toEqual([]);
  });

  it('retention: a delivered visit kept to play back stays past the grace, never past the age limit', () => {
    const root = mkdtempSync(join(tmpdir(), 'scribe-spools-'));
    const clock = 1_000_000;
    const make = (sessionId: string, extra: Partial<SpoolOptions> = {}) => {
      const spool = write(options({ dir: join(root, sessionId), sessionId, now: () => clock, ...extra }), 1);
      spool.close();
      spool.setState('delivered');
    };
    make('kept');
    make('kept-form', { kind: 'form', visitSessionId: 'kept' });
    make('finished');
    const week = 7 * 24 * 3_600_000;
    // What the caller keeps (maintenance.ts: the ambient leg of an unfinished visit with its note).
    const keepDelivered = (manifest: { sessionId: string }) => manifest.sessionId === 'kept';
    expect(
      sweepAudioSpools(root, clock + 60_000, { graceMs: 60_000, maxAgeMs: week, keepDelivered }).sort(),
    ).toEqual(['finished', 'kept-form']);
    expect(
      sweepAudioSpools(root, clock + week - 1, { graceMs: 60_000, maxAgeMs: week, keepDelivered }),
    ).toEqual([]);
    expect(sweepAudioSpools(root, clock + week, { graceMs: 60_000, maxAgeMs: week, keepDelivered })).toEqual([
      'kept',
    ]);
  });

  it('retention: a spool folder whose manifest is unreadable goes after the age limit too', () => {
    const root = mkdtempSync(join(tmpdir(), 'scribe-spools-'));
    const spool = write(options({ dir: join(root, 'orphan'), sessionId: 'orphan' }), 2);
    spool.close();
    writeFileSync(join(root, 'orphan', 'manifest.json'), '{"version":1,');
    const week = 7 * 24 * 3_600_000;
    expect(sweepAudioSpools(root, Date.now() + 60_000, { graceMs: 60_000, maxAgeMs: week })).toEqual([]);
    expect(existsSync(join(root, 'orphan'))).toBe(true);
    expect(sweepAudioSpools(root, Date.now() + week + 60_000, { graceMs: 60_000, maxAgeMs: week })).toEqual([
      'orphan',
    ]);
    expect(existsSync(join(root, 'orphan'))).toBe(false);
  });
});
