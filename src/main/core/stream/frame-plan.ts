import { FRAME_BYTES as CHUNK_BYTES, MIN_CHUNK_BYTES } from '../../../shared/audio-format';
import type { StreamEventName } from './stream-port';

// protocol: Audio stream (100 ms chunks of 3,200 bytes; the service accepts 20 ms, 640 bytes, and up)
export { BYTES_PER_SECOND, FRAME_BYTES as CHUNK_BYTES, MIN_CHUNK_BYTES } from '../../../shared/audio-format';

/** An event waiting for the audio appended before it to go out first. */
export interface QueuedEvent {
  /** Log offset when the event was sent: it goes out once the audio before this offset has. */
  at: number;
  event: StreamEventName;
}

/** What to put on the wire next. */
export type NextFrame =
  | { kind: 'event'; event: QueuedEvent }
  | { kind: 'audio'; bytes: number }
  /** Nothing to send until more audio is appended (or an event closes the current stretch). */
  | { kind: 'wait' };

/**
 * Decides the next frame from where the wire is (`sent`), the queued events and the log length.
 *
 * Audio goes out in 100 ms chunks whatever size the recorder appended. A stretch of audio that
 * ends at an event (or at the log end) is cut so no chunk is shorter than 20 ms, which the service
 * refuses: when less than 20 ms would be left after a 100 ms chunk, the chunk takes the rest too
 * (up to 120 ms). At the log end that means a partial chunk waits for more audio unless it is
 * at least 100 ms, so the piece left behind is never shorter than 20 ms either.
 */
export function nextFrame(sent: number, events: readonly QueuedEvent[], logLength: number): NextFrame {
  const head = events[0];
  if (head && head.at <= sent) return { kind: 'event', event: head };
  // An event closes the stretch before it: that stretch is complete and can be cut exactly.
  const end = head ? head.at : logLength;
  const closed = head !== undefined;
  const left = end - sent;
  if (left >= CHUNK_BYTES + MIN_CHUNK_BYTES) return { kind: 'audio', bytes: CHUNK_BYTES };
  if (left >= CHUNK_BYTES) return { kind: 'audio', bytes: left };
  if (closed && left >= MIN_CHUNK_BYTES) return { kind: 'audio', bytes: left };
  // A closed stretch under 20 ms cannot go out on its own (only when the recorder appends odd
  // sizes around an event): the event goes first and those few ms join the audio after it.
  if (closed) return { kind: 'event', event: head };
  return { kind: 'wait' };
}

/**
 * Adds an event to the queue. KEEP_ALIVEs queued at the same offset (a pause while the link is
 * down) collapse into one: the service needs one, not a burst of stale ones.
 */
export function enqueueEvent(events: QueuedEvent[], event: StreamEventName, at: number): void {
  const last = events.at(-1);
  if (event === 'KEEP_ALIVE' && last?.event === 'KEEP_ALIVE' && last.at === at) return;
  events.push({ event, at });
}
