/**
 * A service without the ACK extension cannot tell a reconnecting client where to resume, so the
 * client resumes from the last offset the service proved it read (a pong), which may be a little
 * before what the service really has: the service's audio then holds a span twice, right where a
 * new connection starts. Tests use this to take those spans out and compare the rest with what
 * the client captured, byte for byte.
 */

export interface WithoutRepeats {
  /** The service's audio with the span repeated at each reconnect taken out. */
  pcm: Buffer;
  /** Bytes repeated at each reconnect, in order (one entry per connection after the first). */
  repeats: number[];
}

/** Where each connection's audio starts in the session's audio, from the sandbox's timeline. */
export function connectionStarts(timeline: readonly { type: string; detail?: string }[]): number[] {
  return timeline
    .filter((event) => event.type === 'connect')
    .map((event) => Number(/at byte (\d+)/.exec(event.detail ?? '')?.[1] ?? NaN));
}

/**
 * Takes out the repeated span at each connection start of `service` (offsets from
 * connectionStarts), checking that each new connection continues `captured` exactly: a new
 * connection's audio must equal the captured audio from some point at or before where the audio
 * so far ends. Returns undefined when a connection's audio fits nowhere (audio was lost or
 * reordered), so a test fails on it rather than on a guess.
 */
export function withoutResumeRepeats(
  service: Buffer,
  starts: readonly number[],
  captured: Buffer,
): WithoutRepeats | undefined {
  const bounds = [...starts.filter((start) => start > 0), service.length];
  const pieces = [service.subarray(0, bounds[0])];
  let reached = bounds[0] as number;
  if (!service.subarray(0, reached).equals(captured.subarray(0, reached))) return undefined;
  const repeats: number[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const segment = service.subarray(bounds[k], bounds[k + 1]);
    // The smallest repeat that makes the whole segment continue the captured audio (whole samples).
    let repeat = -1;
    for (let d = 0; d <= reached; d += 2) {
      const from = reached - d;
      if (captured.subarray(from, from + segment.length).equals(segment)) {
        repeat = d;
        break;
      }
    }
    if (repeat < 0) return undefined;
    repeats.push(repeat);
    pieces.push(segment.subarray(Math.min(repeat, segment.length)));
    reached += Math.max(0, segment.length - repeat);
  }
  return { pcm: Buffer.concat(pieces), repeats };
}
