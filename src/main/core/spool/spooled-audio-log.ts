import { createMemoryAudioLog, type AudioLog } from '../stream/audio-log';
import type { AudioSpool } from './audio-spool';

export interface SpooledAudioLogOptions {
  /**
   * The spool stopped taking audio (disk full, failing): from now on the visit's audio lives in
   * memory only and would not survive a crash. Called once, with the disk's error.
   */
  onWriteFailure?(error: Error): void;
}

/**
 * The stream client's audio log: every byte goes to the visit's spool before it counts as
 * appended, and the sender reads it back from the spool (from disk, but for the chunk just
 * appended, which the spool keeps until the next one), so memory holds no backlog of audio. The
 * service's acknowledgements are only noted in the manifest: a restarted service may ask again
 * from below its last ACK, and the spool still has every byte.
 *
 * Should the disk refuse a write, nothing is lost: that chunk and every later one stay in memory
 * (reads above the spool's length come from there), and `onWriteFailure` lets the clinician know.
 */
export function spooledAudioLog(spool: AudioSpool, options: SpooledAudioLogOptions = {}): AudioLog {
  /** The audio the spool could not keep: every byte from `start` (the spool's length) on. */
  let unspooled: { start: number; memory: AudioLog } | undefined;

  return {
    append(pcm) {
      if (!unspooled) {
        const before = spool.length;
        spool.append(pcm);
        const failure = spool.writeFailure;
        if (!failure) return;
        unspooled = { start: spool.length, memory: createMemoryAudioLog() };
        // The failure may come after this chunk is on disk (closing a full segment): then it is
        // the spool's, and only what follows belongs in memory. Twice would shift every offset.
        if (spool.length === before) unspooled.memory.append(pcm);
        options.onWriteFailure?.(failure);
        return;
      }
      unspooled.memory.append(pcm);
    },
    read(from, max) {
      if (!unspooled || from + max <= unspooled.start) return spool.read(from, max);
      const { start, memory } = unspooled;
      if (from >= start) return memory.read(from - start, max);
      const onDisk = spool.read(from, start - from);
      const inMemory = memory.read(0, max - onDisk.length);
      const out = new Uint8Array(onDisk.length + inMemory.length);
      out.set(onDisk);
      out.set(inMemory, onDisk.length);
      return out;
    },
    get length() {
      return spool.length + (unspooled?.memory.length ?? 0);
    },
    release(upTo) {
      spool.noteAcked(upTo);
    },
    get confirmed() {
      return spool.ackedOffset;
    },
  };
}
