import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BYTES_PER_SECOND } from '../../../shared/audio-format';
import { listAudioSpools, type SpoolManifest } from '../spool/audio-spool';
import { openRecord } from '../spool/spool-record';

/**
 * A visit's own recording, read back for the clinician to listen to (issue 38): the audio the
 * service received is the ambient leg's spool, byte for byte, so a transcript line's offsets (ms in
 * that audio) name its bytes. Only the segments the span falls in are read and opened, so a line of
 * a 60-minute visit costs one or two 30 s segments, not the whole visit.
 */

/** The audio of one stretch of the recording, and where it really starts and ends (clipped to the audio). */
export interface RecordingSpan {
  pcm: Buffer;
  fromMs: number;
  toMs: number;
}

/** The recording cannot be played: the reason, in one sentence the window shows. */
export class RecordingUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordingUnavailable';
  }
}

const bytesAt = (ms: number) => Math.floor((ms * BYTES_PER_SECOND) / 1000 / 2) * 2;
const msAt = (bytes: number) => (bytes * 1000) / BYTES_PER_SECOND;

/** The directory of the visit's ambient spool (the audio its transcript is timed on), if any. */
export function findRecording(
  root: string,
  sessionId: string,
): { dir: string; manifest: SpoolManifest } | undefined {
  return listAudioSpools(root).find(
    ({ manifest }) =>
      manifest.sessionId === sessionId && manifest.kind === 'ambient' && manifest.state !== 'discarded',
  );
}

/**
 * The audio from `fromMs` to `toMs` of the visit's recording (ms in the audio the service received),
 * read from its sealed segments. Throws RecordingUnavailable when the spool is gone, or a segment
 * the span needs is missing or does not open (damaged, another key): nothing is played from a
 * recording that may be another's or cut short without saying so.
 */
export function readRecordingSpan(
  recording: { dir: string; manifest: SpoolManifest },
  key: Uint8Array,
  fromMs: number,
  toMs: number,
): RecordingSpan {
  const { dir, manifest } = recording;
  const from = bytesAt(Math.max(0, fromMs));
  const to = bytesAt(toMs);
  const parts: Buffer[] = [];
  let start: number | undefined;
  let end = from;
  manifest.segments.forEach((segment, i) => {
    const next = manifest.segments[i + 1]?.firstOffset ?? Infinity;
    // Only the segments whose audio overlaps [from, to).
    if (next <= from || segment.firstOffset >= to) return;
    let data: Buffer;
    try {
      data = readFileSync(join(dir, segment.name));
    } catch {
      throw new RecordingUnavailable(
        'Part of this recording is missing on this computer, so it cannot be played.',
      );
    }
    for (let at = 0; at < data.length;) {
      const record = openRecord(key, manifest.sessionId, data, at);
      // A torn tail is the write a crash interrupted: the audio before it plays.
      if (record.kind === 'torn') break;
      if (record.kind === 'unreadable')
        throw new RecordingUnavailable(
          'This recording cannot be read on this computer, so it cannot be played.',
        );
      at += record.bytes;
      const recordEnd = record.offset + record.audio.length;
      if (recordEnd <= from || record.offset >= to) continue;
      const cutFrom = Math.max(from, record.offset);
      const cutTo = Math.min(to, recordEnd);
      // Audio must follow on without a gap: a hole would shift everything after it.
      if (start !== undefined && cutFrom !== end)
        throw new RecordingUnavailable(
          'Part of this recording is missing on this computer, so it cannot be played.',
        );
      start ??= cutFrom;
      parts.push(record.audio.subarray(cutFrom - record.offset, cutTo - record.offset));
      end = cutTo;
    }
  });
  if (start === undefined) throw new RecordingUnavailable('This part of the visit has no recording to play.');
  return { pcm: Buffer.concat(parts), fromMs: msAt(start), toMs: msAt(end) };
}

/**
 * Deletes every spool of the visit (its ambient leg and its form-filling legs) that is not in use;
 * returns how many went. Used at Finished: the note is in the EHR, and the recording goes with the
 * clinician's edits.
 */
export function deleteVisitRecording(
  root: string,
  sessionId: string,
  inUse: (sessionId: string) => boolean,
): number {
  let deleted = 0;
  for (const { dir, manifest } of listAudioSpools(root)) {
    if (manifest.sessionId !== sessionId && manifest.visitSessionId !== sessionId) continue;
    if (inUse(manifest.sessionId)) continue;
    rmSync(dir, { recursive: true, force: true });
    deleted += 1;
  }
  return deleted;
}
