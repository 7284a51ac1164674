import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { continueAudioSpool, createAudioSpool, recoverAudioSpool, type AudioSpool } from './audio-spool';
import { readSpoolManifest } from './spool-manifest';
import { recordBytes } from './spool-record';
import { CHUNK, key, piecesOf, randomAudio, spoolOptions } from './spool.test-support';

/** What `read(from, max)` must give for `audio`: up to `max` bytes, fewer only at the end. */
const slice = (audio: Buffer, from: number, max: number) =>
  audio.subarray(Math.min(from, audio.length), Math.min(audio.length, from + max));

function expectReads(spool: AudioSpool, audio: Buffer, ranges: [number, number][]) {
  for (const [from, max] of ranges) {
    const got = Buffer.from(spool.read(from, max));
    expect(got.equals(slice(audio, from, max)), `read(${from}, ${max})`).toBe(true);
  }
}

describe('reading a visit back from its spool', () => {
  it('gives back any range as appended: across segments, at unaligned offsets, short at the end', () => {
    const o = spoolOptions();
    const audio = randomAudio(25 * CHUNK + 1_000);
    // Appends of uneven sizes, so records and segments end at odd places.
    const spool = createAudioSpool(o);
    for (const [n, piece] of piecesOf(audio, 2_400).entries()) {
      spool.append(piece.subarray(0, 1_000));
      if (n % 3 === 0) spool.append(piece.subarray(1_000, 1_001));
      spool.append(piece.subarray(n % 3 === 0 ? 1_001 : 1_000));
    }
    expect(spool.length).toBe(audio.length);
    const boundary = readSpoolManifest(o.dir).segments[1]!.firstOffset;
    const ranges: [number, number][] = [
      [0, CHUNK],
      [1, 2],
      [999, 3],
      [3_199, CHUNK],
      [boundary - 7, 14],
      [1_234, 20 * CHUNK], // three segments in one read
      [audio.length - 10, CHUNK], // fewer at the end
      [audio.length, CHUNK],
      [audio.length + 10, CHUNK],
      [0, audio.length],
    ];
    expectReads(spool, audio, ranges);
    // Any even offset a service might acknowledge, and sizes the sender might ask for.
    const random: [number, number][] = Array.from({ length: 300 }, () => [
      2 * Math.floor((Math.random() * audio.length) / 2),
      1 + Math.floor(Math.random() * 3 * CHUNK),
    ]);
    expectReads(spool, audio, random);
    spool.close();
    expectReads(spool, audio, [...ranges, ...random.slice(0, 50)]);
  });

  it('reads from the segment still being written, each chunk as soon as it is appended', () => {
    const o = spoolOptions();
    const audio = randomAudio(15 * CHUNK);
    const spool = createAudioSpool(o);
    for (const [n, piece] of piecesOf(audio).entries()) {
      spool.append(piece);
      expectReads(spool, audio, [[n * CHUNK, CHUNK]]);
      expect(spool.length).toBe((n + 1) * CHUNK);
    }
    // Nothing closed: the second segment is open for writing, and still readable across the seam.
    expectReads(spool, audio, [
      [9 * CHUNK + 100, 2 * CHUNK],
      [0, 15 * CHUNK],
    ]);
  });

  it('reads the recovered audio from disk after a continue, and the new audio after it', () => {
    const o = spoolOptions();
    const audio = randomAudio(20 * CHUNK);
    const first = createAudioSpool(o);
    for (const piece of piecesOf(audio.subarray(0, 14 * CHUNK))) first.append(piece);
    // The app is killed mid-write: the last record is torn, so 13 chunks survive.
    const last = join(o.dir, 'segment-000002.spool');
    truncateSync(last, statSync(last).size - 100);

    const recovered = recoverAudioSpool(o.dir, key);
    expect(recovered.length).toBe(13 * CHUNK);
    const continued = continueAudioSpool(o, recovered);
    expect(continued.length).toBe(13 * CHUNK);
    const kept = Buffer.concat([audio.subarray(0, 13 * CHUNK), audio.subarray(14 * CHUNK)]);
    for (const piece of piecesOf(audio.subarray(14 * CHUNK))) continued.append(piece);
    expect(continued.length).toBe(kept.length);
    expectReads(continued, kept, [
      [0, kept.length],
      [13 * CHUNK - 6, 12], // the seam between recovered and new audio
      [5_000, 3 * CHUNK],
    ]);
  });

  it('reads from the disk, not from a copy: a damaged record fails the read', () => {
    const o = spoolOptions();
    const spool = createAudioSpool(o);
    for (const piece of piecesOf(randomAudio(3 * CHUNK))) spool.append(piece);
    const file = join(o.dir, 'segment-000001.spool');
    const bytes = readFileSync(file);
    const inSecondRecord = recordBytes(CHUNK) + 100;
    bytes.writeUInt8(bytes.readUInt8(inSecondRecord) ^ 0xff, inSecondRecord);
    writeFileSync(file, bytes);
    expect(spool.read(0, CHUNK)).toHaveLength(CHUNK);
    expect(() => spool.read(CHUNK, CHUNK)).toThrow(/cannot be read back/);
  });

  it('a discarded spool has nothing to read', () => {
    const spool = createAudioSpool(spoolOptions());
    spool.append(randomAudio(CHUNK));
    spool.discard();
    expect(() => spool.read(0, CHUNK)).toThrow(/discarded/);
  });
});
