import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { AudioLog } from '../stream/audio-log';
import { createAudioSpool, readRecoveredAudio, recoverAudioSpool } from './audio-spool';
import { recordBytes } from './spool-record';
import { spooledAudioLog } from './spooled-audio-log';
import { CHUNK, failingDisk, key, piecesOf, randomAudio, spoolOptions } from './spool.test-support';

/** Every byte of the log, read back in the sender's 100 ms steps from `from`. */
function readAll(log: AudioLog, from = 0): Buffer {
  const pieces: Uint8Array[] = [];
  for (let at = from; at < log.length;) {
    const piece = log.read(at, CHUNK);
    pieces.push(Buffer.from(piece));
    at += piece.length;
  }
  return Buffer.concat(pieces);
}

describe('the spooled audio log', () => {
  it('reads what was appended back from the spool, and keeps it after the service acknowledges', () => {
    const o = spoolOptions();
    const spool = createAudioSpool(o);
    const log = spooledAudioLog(spool);
    const audio = randomAudio(20 * CHUNK);
    for (const piece of piecesOf(audio)) log.append(piece);
    expect(log.length).toBe(audio.length);
    expect(readAll(log).equals(audio)).toBe(true);

    log.release?.(15 * CHUNK);
    // A restarted service resumes lower than it acknowledged: the client sends from there again.
    expect(
      Buffer.from(log.read(3 * CHUNK + 2, CHUNK)).equals(audio.subarray(3 * CHUNK + 2, 4 * CHUNK + 2)),
    ).toBe(true);
    expect(readAll(log, 2).equals(audio.subarray(2))).toBe(true);
    spool.close();
    expect(recoverAudioSpool(o.dir, key).manifest.ackedOffset).toBe(15 * CHUNK);
  });

  it("a disk that fails to fsync a full segment keeps that segment's last chunk once, not twice", () => {
    const o = spoolOptions();
    // Segments of 5 chunks: the 5th append fills the first, and its fsync fails.
    const spool = createAudioSpool({
      ...o,
      segmentAudioBytes: 5 * CHUNK,
      io: {
        fsyncSync: () => {
          throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
        },
      },
    });
    const onWriteFailure = vi.fn();
    const log = spooledAudioLog(spool, { onWriteFailure });
    const audio = randomAudio(12 * CHUNK);
    for (const piece of piecesOf(audio)) log.append(piece);
    expect(onWriteFailure).toHaveBeenCalledOnce();
    expect(spool.length).toBe(5 * CHUNK);
    expect(log.length).toBe(audio.length);
    expect(readAll(log).equals(audio)).toBe(true);
  });

  it('a full disk (ENOSPC on the 5th write) costs no audio: no throw, one notice, every byte readable', () => {
    const o = spoolOptions();
    const disk = failingDisk(5, 'no-space');
    const spool = createAudioSpool({ ...o, io: disk });
    const onWriteFailure = vi.fn();
    const log = spooledAudioLog(spool, { onWriteFailure });
    const audio = randomAudio(20 * CHUNK);

    for (const piece of piecesOf(audio)) expect(() => log.append(piece)).not.toThrow();
    expect(onWriteFailure).toHaveBeenCalledOnce();
    expect(onWriteFailure.mock.calls[0]?.[0]).toMatchObject({ code: 'ENOSPC' });
    expect(disk.writes).toBe(5); // nothing written after the failure
    expect(spool.length).toBe(4 * CHUNK);
    expect(log.length).toBe(audio.length);
    expect(readAll(log).equals(audio)).toBe(true);
    // One read across the seam between disk and memory, and reads on both sides.
    for (const [from, max] of [
      [4 * CHUNK - 100, 300],
      [CHUNK + 2, CHUNK],
      [10 * CHUNK + 6, 2 * CHUNK],
    ] as const) {
      expect(Buffer.from(log.read(from, max)).equals(audio.subarray(from, from + max))).toBe(true);
    }

    // Should the app now crash, recovery finds the records written before the failure.
    const recovered = recoverAudioSpool(o.dir, key);
    expect(recovered.problems).toEqual([]);
    expect(recovered.length).toBe(4 * CHUNK);
    expect(readRecoveredAudio(o.dir, key, recovered).equals(audio.subarray(0, 4 * CHUNK))).toBe(true);
  });

  it('a short write leaves no record after the torn one, and recovery drops only the torn one', () => {
    const o = spoolOptions();
    const disk = failingDisk(12, 'short'); // the second record of the second segment
    const spool = createAudioSpool({ ...o, io: disk });
    const onWriteFailure = vi.fn();
    const log = spooledAudioLog(spool, { onWriteFailure });
    const audio = randomAudio(20 * CHUNK);

    for (const piece of piecesOf(audio)) log.append(piece);
    expect(onWriteFailure).toHaveBeenCalledOnce();
    expect(String(onWriteFailure.mock.calls[0]?.[0])).toMatch(/short write/);
    expect(disk.writes).toBe(12);
    expect(readAll(log).equals(audio)).toBe(true);

    const segment = join(o.dir, 'segment-000002.spool');
    expect(statSync(segment).size).toBe(recordBytes(CHUNK) + (recordBytes(CHUNK) >> 1));
    expect(readdirSync(o.dir).filter((f) => f.endsWith('.spool'))).toHaveLength(2);
    const recovered = recoverAudioSpool(o.dir, key);
    expect(recovered.length).toBe(11 * CHUNK);
    expect(readRecoveredAudio(o.dir, key, recovered).equals(audio.subarray(0, 11 * CHUNK))).toBe(true);
    expect(recovered.problems).toEqual([
      `segment-000002.spool: torn tail dropped at byte ${recordBytes(CHUNK)}`,
    ]);
  });

  it('a manifest the disk refuses throws nowhere; audio in a segment it cannot name stays in memory', () => {
    const o = spoolOptions();
    const spool = createAudioSpool(o);
    const onWriteFailure = vi.fn();
    const log = spooledAudioLog(spool, { onWriteFailure });
    const audio = randomAudio(15 * CHUNK);
    const pieces = piecesOf(audio);
    for (const piece of pieces.slice(0, 5)) log.append(piece);

    // The manifest cannot be replaced any more (a directory stands in its place).
    const manifest = join(o.dir, 'manifest.json');
    rmSync(manifest);
    mkdirSync(manifest);
    // The 10th append closes segment 1 (its manifest save fails quietly); the 11th needs a
    // segment the manifest would have to name, so audio writing stops there.
    for (const piece of pieces.slice(5)) expect(() => log.append(piece)).not.toThrow();
    expect(onWriteFailure).toHaveBeenCalledOnce();
    expect(spool.length).toBe(10 * CHUNK);
    expect(readAll(log).equals(audio)).toBe(true);
    expect(spool.setState('ended')).toBe(false);
    expect(spool.close()).toBe(false);
    expect(readdirSync(o.dir).filter((f) => f.endsWith('.spool'))).toEqual(['segment-000001.spool']);

    // Once the disk takes it again, the manifest is saved and recovery has segment 1.
    rmSync(manifest, { recursive: true });
    expect(spool.setState('ended')).toBe(true);
    const recovered = recoverAudioSpool(o.dir, key);
    expect(recovered.manifest.state).toBe('ended');
    expect(readRecoveredAudio(o.dir, key, recovered).equals(audio.subarray(0, 10 * CHUNK))).toBe(true);
  });

  it('a spool whose directory cannot be made keeps the visit in memory from the first byte', () => {
    const o = spoolOptions();
    const blocker = join(o.dir, '..', 'not-a-directory');
    writeFileSync(blocker, '');
    const spool = createAudioSpool({ ...o, dir: join(blocker, 'visit') });
    const onWriteFailure = vi.fn();
    const log = spooledAudioLog(spool, { onWriteFailure });
    const audio = randomAudio(5 * CHUNK);
    for (const piece of piecesOf(audio)) log.append(piece);
    expect(onWriteFailure).toHaveBeenCalledOnce();
    expect(spool.length).toBe(0);
    expect(readAll(log).equals(audio)).toBe(true);
    expect(spool.close()).toBe(false);
  });
});
