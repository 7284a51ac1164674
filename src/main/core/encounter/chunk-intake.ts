import { decodeAudioChunk, type AudioChunk } from '../../../shared/contract';
import type { FieldProblem } from '../../../shared/validation';
import type { EventHub } from '../event-hub';
import { throttledWarnings } from '../logging/throttled-warnings';
import type { Logger } from '../ports';
import { UserFacingError } from '../user-facing-error';

/**
 * The receiving end of the renderer's one-way chunk channel: checks each binary message and hands
 * the chunk to the running recording. Chunks have no reply, so a refusal goes out as a
 * recorder.chunkRefused event (and a log line that names the field, never the audio).
 */
export function createChunkIntake(deps: {
  record(chunk: AudioChunk): void;
  events: EventHub;
  log: Logger;
}): (message: unknown) => void {
  // A page can send refused chunks at will: they are counted, not each written.
  const warn = throttledWarnings(deps.log);
  const refuse = (message: string, fields: FieldProblem[], seq?: number) => {
    warn(`audio chunk refused${seq !== undefined ? ` (seq ${seq})` : ''}: ${message}`);
    deps.events.emit('recorder.chunkRefused', { ...(seq !== undefined ? { seq } : {}), message, fields });
  };

  return (message) => {
    const bytes = asBytes(message);
    if (!bytes) {
      refuse('An audio chunk must be binary data.', [
        { field: 'chunk', message: 'Audio chunk must be binary data.' },
      ]);
      return;
    }
    const decoded = decodeAudioChunk(bytes);
    if (!decoded.ok) {
      refuse(decoded.problems[0]!.message, decoded.problems);
      return;
    }
    const { chunk } = decoded;
    try {
      // A private copy of the audio: the transport's buffer may be a slice of a larger socket read
      // that the recorder would otherwise keep alive for as long as it holds the chunk.
      deps.record({ ...chunk, pcm: new Uint8Array(chunk.pcm) });
    } catch (error) {
      if (!(error instanceof UserFacingError)) throw error;
      refuse(error.message, error.fields, chunk.seq);
    }
  };
}

function asBytes(message: unknown): Uint8Array | undefined {
  if (message instanceof ArrayBuffer) return new Uint8Array(message);
  if (ArrayBuffer.isView(message))
    return new Uint8Array(message.buffer, message.byteOffset, message.byteLength);
  // ws hands over fragmented binary messages as a list of Buffers.
  if (Array.isArray(message) && message.every((part) => part instanceof Uint8Array)) {
    return Buffer.concat(message as Uint8Array[]);
  }
  return undefined;
}
