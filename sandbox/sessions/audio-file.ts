import { appendFileSync, closeSync, openSync, readFileSync, statSync, truncateSync } from 'node:fs';
import type { AtRestCipher } from '../persistence';

/**
 * A session's received audio on disk, appended as it arrives (an ACK must survive a crash). Plain:
 * the raw PCM, so a test can read it. Sealed: each append is one sealed frame (4-byte big-endian
 * length, then the sealed bytes), so nothing of the audio is on disk in the clear.
 */
export interface AudioFile {
  append(pcm: Buffer): void;
  read(): Buffer;
  /** Bytes of audio in the file (after a crash: the whole frames that landed). */
  size(): number;
}

const LENGTH_BYTES = 4;

export function audioFile(path: string, cipher?: AtRestCipher): AudioFile {
  if (!cipher) {
    return {
      append: (pcm) => appendFileSync(path, pcm, { mode: 0o600 }),
      read: () => readOrEmpty(path),
      size: () => sizeOf(path),
    };
  }
  const frames = (): Buffer[] => {
    const bytes = readOrEmpty(path);
    const found: Buffer[] = [];
    let at = 0;
    while (at + LENGTH_BYTES <= bytes.length) {
      const length = bytes.readUInt32BE(at);
      if (at + LENGTH_BYTES + length > bytes.length) break;
      found.push(bytes.subarray(at + LENGTH_BYTES, at + LENGTH_BYTES + length));
      at += LENGTH_BYTES + length;
    }
    // A frame cut short by a crash is dropped, so the next append starts on a frame boundary (the
    // client sends those bytes again: they were never acknowledged).
    if (at < bytes.length) truncateSync(path, at);
    return found;
  };
  return {
    append(pcm) {
      const sealed = cipher.seal(pcm);
      const length = Buffer.alloc(LENGTH_BYTES);
      length.writeUInt32BE(sealed.length);
      appendFileSync(path, Buffer.concat([length, sealed]), { mode: 0o600 });
    },
    read: () => Buffer.concat(frames().map((frame) => cipher.open(frame))),
    size: () => frames().reduce((sum, frame) => sum + frame.length - cipher.overhead, 0),
  };
}

/** Creates the file (empty), private to this user. */
export function createEmptyFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
}

function readOrEmpty(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw error;
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
