import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/**
 * One spooled chunk on disk: a small header in the clear, then the audio sealed with AES-256-GCM.
 * The header and the session id are the authenticated data, so a record cannot be moved to another
 * offset or another visit's spool without failing to open.
 *
 *   magic "SP" (2) | version (1) | reserved (1) | sealed length (4, LE) | audio offset (8, LE)
 *   | IV (12) | sealed audio (length) | GCM tag (16)
 */
export const RECORD_HEADER_BYTES = 16;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAGIC = [0x53, 0x50];
const VERSION = 1;
/** A record never holds more than this: anything larger in a header means the header is damaged. */
export const MAX_RECORD_AUDIO = 1 << 20;

/** The bytes one record of `audioBytes` takes on disk. */
export const recordBytes = (audioBytes: number) => RECORD_HEADER_BYTES + IV_BYTES + audioBytes + TAG_BYTES;

/**
 * Each key's KeyObject, made once: given raw bytes, createCipheriv builds one on every call, which
 * tripled a 100 ms record's seal (37-46 µs against 11-16 µs, Node 24; issue 40: the core's CPU
 * while recording). Kept with a copy of the bytes, so a key changed in place is never served stale.
 */
const keyObjects = new WeakMap<Uint8Array, { bytes: Buffer; key: KeyObject }>();

function keyObjectOf(key: Uint8Array): KeyObject {
  const known = keyObjects.get(key);
  if (known?.bytes.equals(key)) return known.key;
  const made = { bytes: Buffer.from(key), key: createSecretKey(key) };
  keyObjects.set(key, made);
  return made.key;
}

export function sealRecord(key: Uint8Array, sessionId: string, offset: number, audio: Uint8Array): Buffer {
  const header = Buffer.alloc(RECORD_HEADER_BYTES);
  header.set(MAGIC, 0);
  header[2] = VERSION;
  header.writeUInt32LE(audio.length, 4);
  header.writeBigUInt64LE(BigInt(offset), 8);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyObjectOf(key), iv);
  cipher.setAAD(Buffer.concat([header, Buffer.from(sessionId, 'utf8')]));
  const sealed = Buffer.concat([cipher.update(audio), cipher.final()]);
  return Buffer.concat([header, iv, sealed, cipher.getAuthTag()]);
}

export type ReadRecord =
  | { kind: 'record'; offset: number; audio: Buffer; bytes: number }
  /** Fewer bytes than a whole record: the write a crash interrupted. */
  | { kind: 'torn' }
  /** A whole record that does not open: damaged bytes, another key, or another visit's record. */
  | { kind: 'unreadable'; reason: string };

/**
 * What a record's clear header says: its sealed length and audio offset (unauthenticated until
 * the record opens); undefined when the bytes are not a spool record header.
 */
export function readRecordHeader(header: Buffer): { length: number; offset: number } | undefined {
  if (header.length < RECORD_HEADER_BYTES) return undefined;
  if (header[0] !== MAGIC[0] || header[1] !== MAGIC[1] || header[2] !== VERSION) return undefined;
  return { length: header.readUInt32LE(4), offset: Number(header.readBigUInt64LE(8)) };
}

/** Reads the record at `at` in a segment's bytes. */
export function openRecord(key: Uint8Array, sessionId: string, data: Buffer, at: number): ReadRecord {
  if (data.length - at < RECORD_HEADER_BYTES) return { kind: 'torn' };
  const header = data.subarray(at, at + RECORD_HEADER_BYTES);
  const fields = readRecordHeader(header);
  if (!fields) return { kind: 'unreadable', reason: 'not a spool record header' };
  const { length, offset } = fields;
  if (length > MAX_RECORD_AUDIO) return { kind: 'unreadable', reason: 'record length out of range' };
  const total = recordBytes(length);
  if (data.length - at < total) return { kind: 'torn' };
  const iv = data.subarray(at + RECORD_HEADER_BYTES, at + RECORD_HEADER_BYTES + IV_BYTES);
  const sealed = data.subarray(at + RECORD_HEADER_BYTES + IV_BYTES, at + total - TAG_BYTES);
  const tag = data.subarray(at + total - TAG_BYTES, at + total);
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyObjectOf(key), iv);
    decipher.setAAD(Buffer.concat([header, Buffer.from(sessionId, 'utf8')]));
    decipher.setAuthTag(tag);
    const audio = Buffer.concat([decipher.update(sealed), decipher.final()]);
    return { kind: 'record', offset, audio, bytes: total };
  } catch {
    return { kind: 'unreadable', reason: 'authentication failed' };
  }
}
