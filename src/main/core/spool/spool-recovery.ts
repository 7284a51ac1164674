import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSpoolIndex, type SpoolIndex } from './spool-index';
import { readSpoolManifest, segmentAt, type SpoolManifest } from './spool-manifest';
import { createSpoolReader } from './spool-reader';
import { openRecord } from './spool-record';

export interface RecoveredSpool {
  manifest: SpoolManifest;
  /** Where every readable record is, in offset order and without gaps; the audio stays on disk. */
  index: SpoolIndex;
  /** Audio bytes recovered (the offset just after the last recovered record). */
  length: number;
  /** What could not be recovered, in words for the log (never audio). */
  problems: string[];
}

/**
 * Every recovered byte, read from disk at once: for tests and checks (a visit's audio is better
 * read piece by piece from a continued spool).
 */
export function readRecoveredAudio(dir: string, key: Uint8Array, recovered: RecoveredSpool): Buffer {
  const reader = createSpoolReader({
    dir,
    key,
    sessionId: recovered.manifest.sessionId,
    index: recovered.index,
    segmentName: (segment) => segmentAt(recovered.manifest, segment).name,
  });
  try {
    return Buffer.from(reader.read(0, recovered.length));
  } finally {
    reader.close();
  }
}

/** The spool could not be opened with this key: nothing in it can be read. */
export class SpoolKeyError extends Error {
  constructor(dir: string) {
    super(`the spool in ${dir} cannot be decrypted with this app's key`);
    this.name = 'SpoolKeyError';
  }
}

/**
 * Reads a spool back after a restart or crash. A torn last record (the write a crash interrupted)
 * is dropped; every complete record before it is recovered. A damaged record ends the recovery of
 * its segment (what follows cannot be framed reliably) and is reported.
 */
export function recoverAudioSpool(dir: string, key: Uint8Array): RecoveredSpool {
  const manifest = readSpoolManifest(dir);
  const index = createSpoolIndex();
  const problems: string[] = [];
  let expected = 0;
  let readable = 0;
  let unreadable = 0;
  recovery: for (const [segmentNumber, segment] of manifest.segments.entries()) {
    let data: Buffer;
    try {
      data = readFileSync(join(dir, segment.name));
    } catch {
      problems.push(`${segment.name}: missing`);
      continue;
    }
    let at = 0;
    while (at < data.length) {
      const record = openRecord(key, manifest.sessionId, data, at);
      if (record.kind === 'torn') {
        const last = segmentNumber === manifest.segments.length - 1;
        problems.push(`${segment.name}: ${last ? 'torn tail dropped' : 'torn record'} at byte ${at}`);
        break;
      }
      if (record.kind === 'unreadable') {
        unreadable += 1;
        problems.push(`${segment.name}: unreadable record at byte ${at} (${record.reason})`);
        break;
      }
      readable += 1;
      if (record.offset !== expected) {
        // Audio after a gap would be sent at the wrong offset: recovery stops at the first one.
        problems.push(`${segment.name}: audio from ${expected} to ${record.offset} is missing`);
        break recovery;
      }
      index.add({ offset: record.offset, length: record.audio.length, segment: segmentNumber, position: at });
      expected = record.offset + record.audio.length;
      at += record.bytes;
    }
  }
  if (readable === 0 && unreadable > 0) throw new SpoolKeyError(dir);
  return { manifest, index, length: expected, problems };
}
