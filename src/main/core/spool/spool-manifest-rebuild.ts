import { closeSync, openSync, readSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readSpoolManifest, writeSpoolManifest, type SpoolManifest } from './spool-manifest';
import { readRecordHeader, RECORD_HEADER_BYTES } from './spool-record';

/** What History knows of a visit's leg, enough to name its spool again. */
export type SpoolFacts = Pick<
  SpoolManifest,
  'sessionId' | 'encounterId' | 'kind' | 'visitSessionId' | 'createdAt' | 'deliverTo' | 'sealed'
>;

const SEGMENT_NAME = /^segment-\d{6}\.spool$/;

/**
 * A spool whose manifest is missing or damaged (a disk that lost its last write, a file edited by
 * hand) gets one again from its segments and History's facts, so the visit stays Interrupted, to
 * finish or discard, rather than Failed with its audio orphaned. Each record's header says its
 * audio offset in the clear; recovery later opens every record with the key and the session id
 * (authenticated), so a rebuilt manifest cannot make foreign audio part of the visit.
 *
 * The service's acknowledged offset was only in the manifest: the rebuilt one says 0, so a service
 * with ACK says where to resume, and one without is sent the visit again from its start.
 *
 * Returns the number of segments found, or undefined when the manifest was readable (nothing to
 * do) or there is no segment to rebuild from.
 */
export function rebuildSpoolManifest(dir: string, facts: SpoolFacts, now: number): number | undefined {
  try {
    readSpoolManifest(dir);
    return undefined;
  } catch {
    // Missing or damaged: rebuilt below.
  }
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => SEGMENT_NAME.test(name));
  } catch {
    return undefined;
  }
  const segments = names
    .sort()
    .map((name) => ({ name, firstOffset: firstRecordOffset(join(dir, name)) }))
    .filter((segment): segment is SpoolManifest['segments'][number] => segment.firstOffset !== undefined);
  if (segments.length === 0) return undefined;
  writeSpoolManifest(dir, {
    version: 1,
    ...facts,
    updatedAt: now,
    // Interrupted: the clinician chooses Finish or Discard, as after any stop mid-visit.
    state: 'recording',
    ackedOffset: 0,
    segments,
  });
  return segments.length;
}

/** The audio offset in the segment's first record header, or undefined. */
function firstRecordOffset(path: string): number | undefined {
  const header = Buffer.alloc(RECORD_HEADER_BYTES);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    readSync(fd, header, 0, RECORD_HEADER_BYTES, 0);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return readRecordHeader(header)?.offset;
}
