import { closeSync, fsyncSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { VisitClock } from '../../../shared/visit-clock';
import { createSpoolIndex, type SpoolIndex } from './spool-index';
import { segmentAt, writeSpoolManifest, type SpoolManifest, type SpoolState } from './spool-manifest';
import { createSpoolReader } from './spool-reader';
import { sealRecord } from './spool-record';
import type { RecoveredSpool } from './spool-recovery';

export { SPOOL_STATES, type SpoolManifest, type SpoolState } from './spool-manifest';
export { SpoolKeyError, readRecoveredAudio, recoverAudioSpool, type RecoveredSpool } from './spool-recovery';
export { listAudioSpools, sweepAudioSpools } from './spool-sweep';

/**
 * A visit's audio on disk, before it counts as captured: segment files of sealed records
 * (spool-record.ts) and a manifest written atomically (spool-manifest.ts). Each append is one
 * write() to the open segment, so a killed app loses at most the write in flight; a segment is
 * fsynced when it closes, and the manifest is rewritten (atomically, fsynced) when a segment opens
 * or closes, when the visit changes state and when its visit clock gains a stretch. The sender
 * reads the audio back from these files (spool-reader.ts), through an index of where each record
 * is (spool-index.ts).
 *
 * A disk that refuses a write (full, failing) never costs audio through an exception: the spool
 * stops writing audio for good and says so in `writeFailure`, and the caller keeps the rest.
 */

/** 30 s of 16 kHz mono 16-bit audio per segment: an fsync every 30 s, and small files. */
export const DEFAULT_SEGMENT_AUDIO_BYTES = 32_000 * 30;

/**
 * The manifest is saved when the acknowledged offset has moved this far (5 s of audio) since it
 * was last saved: a restarted app facing a service without ACK resumes from the saved offset, so
 * after a crash the service is sent at most about this much again (not the whole visit).
 */
export const ACKED_SAVE_STEP_BYTES = 32_000 * 5;

export interface AudioSpool {
  readonly dir: string;
  /**
   * Audio bytes on disk since the visit started (recovered ones included): every one of them can be
   * read back. Appends after a write failure are not on disk and not counted.
   */
  readonly length: number;
  /**
   * Seals `pcm` into the open segment. Never throws for a disk problem: the first failed or short
   * write (or a segment that cannot be opened or named in the manifest) stops all audio writing
   * for this spool, and is kept in `writeFailure`; that chunk and later ones are not on disk.
   */
  append(pcm: Uint8Array): void;
  /**
   * Why audio writing stopped, once it has; then the caller keeps later audio elsewhere. The
   * manifest is still saved when asked, as the visit's state matters to recovery and retention.
   */
  readonly writeFailure: Error | undefined;
  /**
   * Up to `max` bytes of the audio on disk from offset `from` (fewer only at `length`), read and
   * decrypted from the segment files, whatever the service acknowledged. Throws when it cannot.
   */
  read(from: number, max: number): Uint8Array;
  /** The service acknowledged every byte before `offset`. Kept in memory; saved with the manifest. */
  noteAcked(offset: number): void;
  /** The highest offset noted so far, also by an earlier run (as far as its manifest was saved). */
  readonly ackedOffset: number;
  /** Returns whether the manifest could be saved (a full disk may refuse it; nothing throws). */
  setState(state: SpoolState): boolean;
  /**
   * The visit clock of the audio sent (shared/visit-clock.ts), saved with the manifest at once: it
   * changes only at a gap in the audio sent, a few times a visit, and before that audio comes.
   * Returns whether it was saved.
   */
  setVisitClock(clock: VisitClock): boolean;
  /** The visit clock last set, also by an earlier run; undefined when none was kept. */
  readonly visitClock: VisitClock | undefined;
  /**
   * The visit could not be finished for a reason retrying alone cannot change (the service refused
   * a step): it then waits for the clinician (Try again, or Discard) instead of being resumed by
   * itself. `false` clears it when the clinician tries again. Returns whether it was saved.
   */
  setFailed(failed: boolean): boolean;
  /** Closes the open segment (fsynced) and saves the manifest; returns whether both succeeded. */
  close(): boolean;
  /** The clinician discarded the visit: the spool is deleted, later writes do nothing, reads throw. */
  discard(): void;
}

/** The file operations a test may replace to play a failing disk; the real ones by default. */
export interface SpoolIo {
  /** Like fs.writeSync: returns how many bytes were written, or throws (ENOSPC, EIO). */
  writeSync?: (fd: number, data: Uint8Array) => number;
  /** Like fs.fsyncSync: throws when the disk cannot make the segment durable (EIO). */
  fsyncSync?: (fd: number) => void;
}

export interface SpoolOptions {
  dir: string;
  key: Uint8Array;
  sessionId: string;
  encounterId: string;
  kind: SpoolManifest['kind'];
  visitSessionId?: string | undefined;
  /** Where the visit's audio may go (spool-manifest.ts); kept in the manifest. */
  deliverTo?: SpoolManifest['deliverTo'];
  /** The visit's sealed owner and consent (visit-seal.ts); kept in the manifest. */
  sealed?: string | undefined;
  now?: () => number;
  segmentAudioBytes?: number;
  /** For tests only: a disk that fails on demand. */
  io?: SpoolIo;
}

/** Starts a new visit's spool in `dir` (which must not hold one yet). */
export function createAudioSpool(options: SpoolOptions): AudioSpool {
  const now = options.now ?? Date.now;
  let failure: Error | undefined;
  try {
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    // The visit still records: the caller keeps its audio in memory, as after any write failure.
    failure = asError(error);
  }
  const manifest: SpoolManifest = {
    version: 1,
    sessionId: options.sessionId,
    encounterId: options.encounterId,
    kind: options.kind,
    ...(options.visitSessionId ? { visitSessionId: options.visitSessionId } : {}),
    ...(options.deliverTo ? { deliverTo: options.deliverTo } : {}),
    ...(options.sealed ? { sealed: options.sealed } : {}),
    createdAt: now(),
    updatedAt: now(),
    state: 'recording',
    ackedOffset: 0,
    segments: [],
  };
  return openSpool(options, manifest, createSpoolIndex(), failure);
}

/**
 * Continues a recovered spool: the recovered audio is read from its segments where it is, and new
 * audio goes to a fresh segment after it.
 */
export function continueAudioSpool(options: SpoolOptions, recovered: RecoveredSpool): AudioSpool {
  const manifest = { ...recovered.manifest, segments: [...recovered.manifest.segments] };
  return openSpool(options, manifest, recovered.index.copy(), undefined);
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

function openSpool(
  options: SpoolOptions,
  manifest: SpoolManifest,
  index: SpoolIndex,
  startFailure: Error | undefined,
): AudioSpool {
  const now = options.now ?? Date.now;
  const segmentLimit = options.segmentAudioBytes ?? DEFAULT_SEGMENT_AUDIO_BYTES;
  const write = options.io?.writeSync ?? writeSync;
  const fsync = options.io?.fsyncSync ?? fsyncSync;
  const reader = createSpoolReader({
    dir: options.dir,
    key: options.key,
    sessionId: manifest.sessionId,
    index,
    segmentName: (segment) => segmentAt(manifest, segment).name,
  });
  let fd: number | undefined;
  let segmentAudio = 0;
  let segmentBytes = 0;
  let discarded = false;
  let writeFailure = startFailure;
  /**
   * The record last written, as plaintext (a copy: callers reuse their buffers). A live stream sends
   * each chunk just after it is appended; reading it back and opening it again a moment after it was
   * sealed was a fifth of the core's per-chunk work (docs/benchmarks.md, issue 40). One chunk, kept
   * until the next append: memory holds no more audio than the chunk that just came in.
   */
  let latest: { offset: number; pcm: Uint8Array } | undefined;

  let savedAckedOffset = manifest.ackedOffset;
  const saveManifest = (): Error | undefined => {
    if (discarded) return undefined;
    manifest.updatedAt = now();
    try {
      writeSpoolManifest(options.dir, manifest);
      savedAckedOffset = manifest.ackedOffset;
      return undefined;
    } catch (error) {
      return asError(error);
    }
  };
  /** fsyncs and closes the open segment; a failure there stops audio writing like a failed write. */
  const closeSegment = (): Error | undefined => {
    if (fd === undefined) return undefined;
    const closing = fd;
    fd = undefined;
    let failure: Error | undefined;
    try {
      fsync(closing);
    } catch (error) {
      failure = asError(error);
    }
    try {
      closeSync(closing);
    } catch (error) {
      failure ??= asError(error);
    }
    if (failure) writeFailure ??= failure;
    return failure;
  };
  /** For good: nothing is written after a torn record, so recovery finds every record before it. */
  const stopWriting = (error: unknown) => {
    writeFailure ??= asError(error);
    closeSegment();
  };
  const openSegment = (): number => {
    const name = `segment-${String(manifest.segments.length + 1).padStart(6, '0')}.spool`;
    const file = join(options.dir, name);
    // 'wx': a segment is never reopened for writing, so a recovered tail is never appended to.
    const opened = openSync(file, 'wx', 0o600);
    manifest.segments.push({ name, firstOffset: index.end });
    // The manifest names the segment before any audio goes into it, so recovery finds it; audio in
    // a segment it does not name would be lost to recovery, so none goes in.
    const unsaved = saveManifest();
    if (unsaved) {
      manifest.segments.pop();
      // Best effort: an empty file left behind would only take the name a continued spool wants.
      try {
        closeSync(opened);
        rmSync(file, { force: true });
      } catch {
        // The manifest's failure is the one to report.
      }
      throw unsaved;
    }
    fd = opened;
    segmentAudio = 0;
    segmentBytes = 0;
    return opened;
  };

  saveManifest();
  return {
    dir: options.dir,
    get length() {
      return index.end;
    },
    get writeFailure() {
      return writeFailure;
    },
    append(pcm) {
      if (pcm.length === 0 || discarded || writeFailure) return;
      latest = undefined;
      try {
        const target = fd ?? openSegment();
        const offset = index.end;
        const record = sealRecord(options.key, manifest.sessionId, offset, pcm);
        const written = write(target, record);
        if (written !== record.length) {
          throw new Error(`short write to the spool: ${written} of ${record.length} bytes`);
        }
        index.add({
          offset: index.end,
          length: pcm.length,
          segment: manifest.segments.length - 1,
          position: segmentBytes,
        });
        segmentBytes += written;
        // A copy, not a view: Buffer#slice would share the caller's memory.
        latest = { offset, pcm: new Uint8Array(pcm) };
      } catch (error) {
        return stopWriting(error);
      }
      segmentAudio += pcm.length;
      if (segmentAudio >= segmentLimit) {
        closeSegment();
        saveManifest();
      }
    },
    read(from, max) {
      if (discarded) throw new Error('the spool was discarded: its audio is gone');
      // The last record ends where the audio does, so a read from inside it is served from it alone
      // (subarray stops at its end, as the reader stops at the audio's). Bad offsets go to the reader.
      if (latest && Number.isSafeInteger(from) && max >= 0 && from >= latest.offset) {
        return latest.pcm.subarray(from - latest.offset, from - latest.offset + max);
      }
      return reader.read(from, max);
    },
    noteAcked(offset) {
      manifest.ackedOffset = Math.max(manifest.ackedOffset, Math.min(offset, index.end));
      if (manifest.ackedOffset - savedAckedOffset >= ACKED_SAVE_STEP_BYTES) saveManifest();
    },
    get ackedOffset() {
      return manifest.ackedOffset;
    },
    setState(state) {
      manifest.state = state;
      return saveManifest() === undefined;
    },
    setVisitClock(clock) {
      manifest.visitClock = clock.map((segment) => ({ ...segment }));
      return saveManifest() === undefined;
    },
    get visitClock() {
      return manifest.visitClock?.map((segment) => ({ ...segment }));
    },
    setFailed(failed) {
      if (failed) manifest.failedAt = now();
      else delete manifest.failedAt;
      return saveManifest() === undefined;
    },
    close() {
      const unsynced = closeSegment();
      reader.close();
      const unsaved = saveManifest();
      return !unsynced && !unsaved;
    },
    discard() {
      discarded = true;
      reader.close();
      if (fd !== undefined) {
        const closing = fd;
        fd = undefined;
        closeSync(closing);
      }
      rmSync(options.dir, { recursive: true, force: true });
    },
  };
}
