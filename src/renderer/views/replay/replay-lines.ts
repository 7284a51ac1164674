import type { TranscriptEntry } from '../../../shared/service';
import type { ReplayLine } from '../../store/replay-slice';

type Offset = TranscriptEntry['start_offset'];
const toMs = (offset: Offset) =>
  offset.hours * 3_600_000 + offset.minutes * 60_000 + offset.seconds * 1_000 + offset.nanos / 1_000_000;

/**
 * Each line's span in the audio the service received (its own offsets, before they are put on the
 * visit clock for the screen), by line id: what Play asks main for. A line whose times are missing,
 * not numbers or backward has none, and no Play.
 */
export function replayLines(transcript: readonly TranscriptEntry[]): Map<string, ReplayLine> {
  const lines = new Map<string, ReplayLine>();
  for (const entry of transcript) {
    if (!entry.start_offset || !entry.end_offset) continue;
    const fromMs = toMs(entry.start_offset);
    const toMsValue = toMs(entry.end_offset);
    if (!Number.isFinite(fromMs) || !Number.isFinite(toMsValue) || fromMs < 0 || toMsValue <= fromMs)
      continue;
    lines.set(entry.transcript_id, { id: entry.transcript_id, fromMs, toMs: toMsValue });
  }
  return lines;
}

/** What Play of a line is called: its speaker and the time the screen shows (`Play Patient 0:52`). */
export const playLabel = (speaker: string | undefined, time: string) =>
  speaker ? `${speaker} ${time}` : time;
