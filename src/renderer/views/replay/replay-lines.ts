import { msFromOffset, type TranscriptEntry } from '../../../shared/service';
import type { ReplayLine } from '../../store/replay-slice';

/**
 * Each line's span in the audio the service received (its own offsets, before they are put on the
 * visit clock for the screen), by line id: what Play asks main for. A line whose times are missing,
 * not numbers or backward has none, and no Play.
 */
export function replayLines(transcript: readonly TranscriptEntry[]): Map<string, ReplayLine> {
  const lines = new Map<string, ReplayLine>();
  for (const entry of transcript) {
    if (!entry.start_offset || !entry.end_offset) continue;
    const fromMs = msFromOffset(entry.start_offset);
    const toMs = msFromOffset(entry.end_offset);
    if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || fromMs < 0 || toMs <= fromMs) continue;
    lines.set(entry.transcript_id, { id: entry.transcript_id, fromMs, toMs });
  }
  return lines;
}

/** What Play of a line is called: its speaker and the time the screen shows (`Play Patient 0:52`). */
export const playLabel = (speaker: string | undefined, time: string) =>
  speaker ? `${speaker} ${time}` : time;
