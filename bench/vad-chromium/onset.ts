/**
 * Speech-onset error: for each true turn start, how long until the detector's verdict says speech.
 * Frame k holds the samples of [32k, 32k + 32) ms; its verdict exists once its last sample has
 * arrived, at 32(k + 1) ms, so that is when the frame counts as flagged.
 */

export interface Turn {
  speaker: string;
  startMs: number;
  endMs: number;
}

export interface Onset {
  turn: number;
  speaker: string;
  startMs: number;
  /** When the first frame flagged speech after the true start ended; undefined if none in the turn. */
  flaggedAtMs: number | undefined;
  /** flaggedAtMs − startMs. */
  errorMs: number | undefined;
  /** The frame before the one holding the start was already flagged: a segment from the previous turn went on. */
  alreadyInSpeech: boolean;
}

export function onsets(speech: boolean[], turns: Turn[], frameMs: number): Onset[] {
  return turns.map((turn, index) => {
    const holding = Math.floor(turn.startMs / frameMs);
    let flagged: number | undefined;
    for (let k = holding; k < speech.length && k * frameMs < turn.endMs; k++) {
      if (speech[k]) {
        flagged = (k + 1) * frameMs;
        break;
      }
    }
    return {
      turn: index + 1,
      speaker: turn.speaker,
      startMs: turn.startMs,
      flaggedAtMs: flagged,
      errorMs: flagged === undefined ? undefined : flagged - turn.startMs,
      alreadyInSpeech: holding > 0 && speech[holding - 1] === true,
    };
  });
}
