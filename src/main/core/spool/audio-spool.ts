import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { openRecord, sealRecord } from './spool-record';

/**
 * A visit's audio on disk, before it counts as captured: segment files of sealed records
 * (spool-record.ts) and a manifest written atomically. Each append is one write() to the open
 * segment, so a killed app loses at most the write in flight; a segment is fsynced when it closes,
 * and the manifest is rewritten (atomically, fsynced) when a segment opens or closes and when the
 * visit changes state.
 */
export const SPOOL_STATES = [
  'recording',
  /** End was pressed: the rest goes to the service when it can be reached, also after a restart. */
  'finishing',
  /** The service has every byte (EOF done); its verdict is still to come. */
  'ended',
  'delivered',
  'discarded',
] as const;
export type SpoolState = (typeof SPOOL_STATES)[number];

const manifestSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  encounterId: z.string(),
  kind: z.enum(['ambient', 'form']),
  /** A form-filling leg of an ambient visit: the ambient session it belongs to. */
  visitSessionId: z.string().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  state: z.enum(SPOOL_STATES),
  /** The service has every byte before this (its last ACK we saw); a hint for recovery. */
  ackedOffset: z.number().int().nonnegative(),
  segments: z.array(z.object({ name: z.string(), firstOffset: z.number().int().nonnegative() })),
});
export type SpoolManifest = z.infer<typeof manifestSchema>;

const MANIFEST = 'manifest.json';
/** 30 s of 16 kHz mono 16-bit audio per segment: an fsync every 30 s, and small files. */
export const DEFAULT_SEGMENT_AUDIO_BYTES = 32_000 * 30;

export interface AudioSpool {
  readonly dir: string;
  /** Audio bytes appended since the visit started (recovered ones included). */
  readonly length: number;
  append(pcm: Uint8Array): void;
  /** The service acknowledged every byte before `offset`. Kept in memory; saved with the manifest. */
  noteAcked(offset: number): void;
  setState(state: SpoolState): void;
  /** Closes the open segment (fsynced) and saves the manifest. */
  close(): void;
  /** The clinician discarded the visit: the spool is deleted, and later calls do nothing. */
  discard(): void;
}

export interface SpoolOptions {
  dir: string;
  key: Uint8Array;
  sessionId: string;
  encounterId: string;
  kind: SpoolManifest['kind'];
  visitSessionId?: string | undefined;
  now?: () => number;
  segmentAudioBytes?: number;
}

/** Starts a new visit's spool in `dir` (which must not hold one yet). */
export function createAudioSpool(options: SpoolOptions): AudioSpool {
  const now = options.now ?? Date.now;
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const manifest: SpoolManifest = {
    version: 1,
    sessionId: options.sessionId,
    encounterId: options.encounterId,
    kind: options.kind,
    ...(options.visitSessionId ? { visitSessionId: options.visitSessionId } : {}),
    createdAt: now(),
    updatedAt: now(),
    state: 'recording',
    ackedOffset: 0,
    segments: [],
  };
  return openSpool(options, manifest, 0);
}

/** Continues a recovered spool: new audio goes to a fresh segment after the recovered bytes. */
export function continueAudioSpool(options: SpoolOptions, recovered: RecoveredSpool): AudioSpool {
  return openSpool(options, { ...recovered.manifest }, recovered.length);
}

function openSpool(options: SpoolOptions, manifest: SpoolManifest, startLength: number): AudioSpool {
  const now = options.now ?? Date.now;
  const segmentLimit = options.segmentAudioBytes ?? DEFAULT_SEGMENT_AUDIO_BYTES;
  let length = startLength;
  let fd: number | undefined;
  let segmentAudio = 0;
  let discarded = false;

  const saveManifest = () => {
    if (discarded) return;
    manifest.updatedAt = now();
    writeFileAtomic.sync(join(options.dir, MANIFEST), JSON.stringify(manifest), { mode: 0o600, fsync: true });
  };
  const closeSegment = () => {
    if (fd === undefined) return;
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
  };
  const openSegment = () => {
    const name = `segment-${String(manifest.segments.length + 1).padStart(6, '0')}.spool`;
    // 'wx': a segment is never reopened for writing, so a recovered tail is never appended to.
    fd = openSync(join(options.dir, name), 'wx', 0o600);
    segmentAudio = 0;
    manifest.segments.push({ name, firstOffset: length });
    // The manifest names the segment before any audio goes into it, so recovery finds it.
    saveManifest();
  };

  saveManifest();
  return {
    dir: options.dir,
    get length() {
      return length;
    },
    append(pcm) {
      if (pcm.length === 0 || discarded) return;
      if (fd === undefined) openSegment();
      const record = sealRecord(options.key, manifest.sessionId, length, pcm);
      writeSync(fd!, record);
      length += pcm.length;
      segmentAudio += pcm.length;
      if (segmentAudio >= segmentLimit) {
        closeSegment();
        saveManifest();
      }
    },
    noteAcked(offset) {
      manifest.ackedOffset = Math.max(manifest.ackedOffset, Math.min(offset, length));
    },
    setState(state) {
      manifest.state = state;
      saveManifest();
    },
    close() {
      closeSegment();
      saveManifest();
    },
    discard() {
      closeSegment();
      discarded = true;
      rmSync(options.dir, { recursive: true, force: true });
    },
  };
}

export interface RecoveredSpool {
  manifest: SpoolManifest;
  /** Every readable record in offset order, without gaps. */
  chunks: { offset: number; audio: Buffer }[];
  /** Audio bytes recovered (the offset just after the last recovered record). */
  length: number;
  /** What could not be recovered, in words for the log (never audio). */
  problems: string[];
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
  const manifest = manifestSchema.parse(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')));
  const chunks: RecoveredSpool['chunks'] = [];
  const problems: string[] = [];
  let expected = 0;
  let readable = 0;
  let unreadable = 0;
  recovery: for (const [index, segment] of manifest.segments.entries()) {
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
        const last = index === manifest.segments.length - 1;
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
      chunks.push({ offset: record.offset, audio: record.audio });
      expected = record.offset + record.audio.length;
      at += record.bytes;
    }
  }
  if (readable === 0 && unreadable > 0) throw new SpoolKeyError(dir);
  return { manifest, chunks, length: expected, problems };
}

/** The manifests of every spool under `root` (one directory per visit), unreadable ones skipped. */
export function listAudioSpools(root: string): { dir: string; manifest: SpoolManifest }[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const dir = join(root, name);
    try {
      const manifest = manifestSchema.parse(JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')));
      return [{ dir, manifest }];
    } catch {
      return [];
    }
  });
}

/**
 * Retention: a delivered or discarded visit's audio goes after `graceMs`; any spool goes after
 * `maxAgeMs` (default 7 days) whatever its state. Returns the session ids removed.
 */
export function sweepAudioSpools(
  root: string,
  now: number,
  options: { graceMs: number; maxAgeMs: number },
): string[] {
  const removed: string[] = [];
  for (const { dir, manifest } of listAudioSpools(root)) {
    const finished = manifest.state === 'delivered' || manifest.state === 'discarded';
    const expired = now - manifest.createdAt >= options.maxAgeMs;
    if ((finished && now - manifest.updatedAt >= options.graceMs) || expired) {
      rmSync(dir, { recursive: true, force: true });
      removed.push(manifest.sessionId);
    }
  }
  return removed;
}
