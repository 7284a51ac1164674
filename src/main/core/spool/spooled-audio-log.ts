import { createMemoryAudioLog, type AudioLog } from '../stream/audio-log';
import type { AudioSpool } from './audio-spool';

/**
 * The stream client's audio log, with every byte written to the visit's spool before it counts
 * as appended. Reads come from memory (the spool is the copy that survives a crash, not the one
 * the sender reads), and the service's acknowledgements are noted in the spool's manifest.
 */
export function spooledAudioLog(spool: AudioSpool, memory: AudioLog = createMemoryAudioLog()): AudioLog {
  return {
    append(pcm) {
      spool.append(pcm);
      memory.append(pcm);
    },
    read: (from, max) => memory.read(from, max),
    get length() {
      return memory.length;
    },
    release(upTo) {
      memory.release?.(upTo);
      spool.noteAcked(upTo);
    },
  };
}
