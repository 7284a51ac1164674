import { AUDIO_FORMAT } from '../limits';

export const STREAM_EVENTS = ['PAUSE', 'RESUME', 'CANCEL', 'ABORT', 'KEEP_ALIVE', 'EOF'] as const;
export type StreamEvent = (typeof STREAM_EVENTS)[number];

export type StreamMessage =
  | { type: 'AUDIO'; pcm: Buffer }
  | { type: 'EVENT'; event: StreamEvent }
  | { type: 'unsupported'; reason: string }
  | { type: 'invalid_audio'; reason: string };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MIN_BYTES = (AUDIO_FORMAT.bytesPerSecond * AUDIO_FORMAT.minChunkMs) / 1000;
const MAX_BYTES = (AUDIO_FORMAT.bytesPerSecond * AUDIO_FORMAT.maxChunkMs) / 1000;

/**
 * One text frame → one message (docs/protocol.md "Audio stream": one JSON object per text frame,
 * AUDIO with standard base64 LINEAR16, EVENT with one of six values).
 */
export function parseStreamMessage(text: string): StreamMessage {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { type: 'unsupported', reason: 'not JSON' };
  }
  if (typeof message !== 'object' || message === null)
    return { type: 'unsupported', reason: 'not an object' };
  const { type, data, event } = message as Record<string, unknown>;
  if (type === 'AUDIO') {
    if (typeof data !== 'string' || !BASE64.test(data))
      return { type: 'invalid_audio', reason: 'data is not standard base64' };
    const pcm = Buffer.from(data, 'base64');
    if (pcm.length % AUDIO_FORMAT.bytesPerSample !== 0)
      return { type: 'invalid_audio', reason: 'odd byte count for 16-bit samples' };
    // protocol: Audio stream (the service accepts 20–1,000 ms chunks)
    if (pcm.length < MIN_BYTES || pcm.length > MAX_BYTES) {
      return {
        type: 'invalid_audio',
        reason: `chunk of ${pcm.length} bytes is outside 20–1000 ms (${MIN_BYTES}–${MAX_BYTES} bytes)`,
      };
    }
    return { type: 'AUDIO', pcm };
  }
  if (type === 'EVENT') {
    if (typeof event === 'string' && (STREAM_EVENTS as readonly string[]).includes(event)) {
      return { type: 'EVENT', event: event as StreamEvent };
    }
    return { type: 'unsupported', reason: `unknown event ${JSON.stringify(event)}` };
  }
  return { type: 'unsupported', reason: `unknown type ${JSON.stringify(type)}` };
}
