import { FRAME_BYTES, MIN_CHUNK_BYTES } from '../audio-format';
import type { FieldProblem } from '../validation';

// protocol: Audio stream (LINEAR16 little-endian, 16 kHz, mono; 100 ms = 3,200 bytes)
/**
 * One captured 100 ms chunk on its way from the renderer to main. Chunks travel on their own
 * one-way binary channel, not as verbs: ten a second with no reply, no JSON and no base64.
 *
 * Wire layout (little-endian), 3,216 bytes:
 *   0      u8   format version (1)
 *   1      u8   flags: bit 0 speech, bit 1 a speech probability is present, bit 2 final
 *   2..3   u16  speech probability × 65,535
 *   4..7   u32  sequence number (0, 1, 2, … per capture; see recorder.attach)
 *   8..15  f64  capture time of the chunk's first sample, epoch ms
 *   16..   3,200 bytes of LINEAR16 PCM
 * The one exception to the size: the capture's final chunk (bit 2), sent at End with the audio
 * captured since the last full chunk, may be shorter: 20–100 ms (640–3,200 bytes, whole samples),
 * the service's smallest chunk being 20 ms (a shorter tail is zero-padded to 20 ms by the capture).
 * The capture worklet writes PCM straight into a buffer of this size at CHUNK_HEADER_BYTES, so
 * the renderer fills in the header and sends the same buffer: no copy of the audio.
 */
export interface AudioChunk {
  seq: number;
  capturedAt: number;
  speech: boolean;
  speechProbability?: number;
  /** The capture's last chunk (End): the only one that may be shorter than 100 ms. */
  final?: boolean;
  /** 3,200 bytes of LINEAR16 little-endian, 16 kHz mono; 640–3,200 (even) in a final chunk. */
  pcm: Uint8Array;
}

export const CHUNK_FORMAT_VERSION = 1;
export const CHUNK_HEADER_BYTES = 16;
export const CHUNK_MESSAGE_BYTES = CHUNK_HEADER_BYTES + FRAME_BYTES;

/** The smallest final chunk message: a header and 20 ms of audio (656 bytes). */
export const MIN_FINAL_CHUNK_MESSAGE_BYTES = CHUNK_HEADER_BYTES + MIN_CHUNK_BYTES;

const SPEECH = 1;
const HAS_PROBABILITY = 2;
const FINAL = 4;

/** Whether a message of `bytes` bytes has a size the layout allows (a final chunk may be shorter). */
function sizeAllowed(bytes: number, final: boolean): boolean {
  if (bytes === CHUNK_MESSAGE_BYTES) return true;
  return final && bytes >= MIN_FINAL_CHUNK_MESSAGE_BYTES && bytes < CHUNK_MESSAGE_BYTES && bytes % 2 === 0;
}

/** Writes the header into `message` (whose PCM is already at CHUNK_HEADER_BYTES). */
export function writeChunkHeader(message: ArrayBuffer, header: Omit<AudioChunk, 'pcm'>): ArrayBuffer {
  if (!sizeAllowed(message.byteLength, header.final === true)) {
    throw new RangeError(
      `A chunk message is ${CHUNK_MESSAGE_BYTES} bytes (a final one ${MIN_FINAL_CHUNK_MESSAGE_BYTES}–${CHUNK_MESSAGE_BYTES}), not ${message.byteLength}`,
    );
  }
  const view = new DataView(message);
  const probability = header.speechProbability;
  view.setUint8(0, CHUNK_FORMAT_VERSION);
  view.setUint8(
    1,
    (header.speech ? SPEECH : 0) |
      (probability !== undefined ? HAS_PROBABILITY : 0) |
      (header.final ? FINAL : 0),
  );
  view.setUint16(2, probability !== undefined ? Math.round(clamp01(probability) * 0xffff) : 0, true);
  view.setUint32(4, header.seq, true);
  view.setFloat64(8, header.capturedAt, true);
  return message;
}

/** A whole chunk message from a header and its PCM (tests and tools; capture writes in place). */
export function encodeAudioChunk(chunk: AudioChunk): ArrayBuffer {
  if (!sizeAllowed(CHUNK_HEADER_BYTES + chunk.pcm.byteLength, chunk.final === true)) {
    throw new RangeError(
      `A chunk carries ${FRAME_BYTES} bytes of audio (a final one ${MIN_CHUNK_BYTES}–${FRAME_BYTES}), not ${chunk.pcm.byteLength}`,
    );
  }
  const message = new ArrayBuffer(CHUNK_HEADER_BYTES + chunk.pcm.byteLength);
  new Uint8Array(message, CHUNK_HEADER_BYTES).set(chunk.pcm);
  return writeChunkHeader(message, chunk);
}

export type DecodedChunk = { ok: true; chunk: AudioChunk } | { ok: false; problems: FieldProblem[] };

/**
 * Reads and checks one chunk message. The PCM is a view into `bytes` (no copy). Problems name the
 * field and the rule, like every other refusal of the contract.
 */
export function decodeAudioChunk(bytes: Uint8Array): DecodedChunk {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const final = bytes.byteLength >= 2 && (view.getUint8(1) & FINAL) !== 0;
  if (!sizeAllowed(bytes.byteLength, final)) {
    return refuse(
      'chunk',
      `Audio chunk must be ${CHUNK_MESSAGE_BYTES} bytes (a ${CHUNK_HEADER_BYTES}-byte header and 100 ms of 16 kHz audio), not ${bytes.byteLength}; only the final chunk may be shorter, ${MIN_FINAL_CHUNK_MESSAGE_BYTES}–${CHUNK_MESSAGE_BYTES} bytes of whole samples (20–100 ms).`,
    );
  }
  const version = view.getUint8(0);
  if (version !== CHUNK_FORMAT_VERSION) {
    return refuse('version', `Audio chunk format version must be ${CHUNK_FORMAT_VERSION}, not ${version}.`);
  }
  const flags = view.getUint8(1);
  if ((flags & ~(SPEECH | HAS_PROBABILITY | FINAL)) !== 0) {
    return refuse(
      'flags',
      'Audio chunk flags may set only bit 0 (speech), bit 1 (probability present) and bit 2 (final).',
    );
  }
  const capturedAt = view.getFloat64(8, true);
  if (!Number.isFinite(capturedAt) || capturedAt < 0) {
    return refuse('capturedAt', 'Audio chunk capture time must be a non-negative finite number of ms.');
  }
  const chunk: AudioChunk = {
    seq: view.getUint32(4, true),
    capturedAt,
    speech: (flags & SPEECH) !== 0,
    pcm: bytes.subarray(CHUNK_HEADER_BYTES),
  };
  if (final) chunk.final = true;
  if (flags & HAS_PROBABILITY) chunk.speechProbability = view.getUint16(2, true) / 0xffff;
  return { ok: true, chunk };
}

function refuse(field: string, message: string): DecodedChunk {
  return { ok: false, problems: [{ field, message }] };
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
