import { offsetFromMs, type TranscriptEntry } from '../../src/shared/service';

/** Transcript entries from lines of text, 4 s apart, ids t1, t2, … (as the recognizer numbers them). */
export function transcriptOf(lines: string[]): TranscriptEntry[] {
  return lines.map((text, i) => ({
    transcript_id: `t${i + 1}`,
    transcript: text,
    start_offset: offsetFromMs(i * 4000),
    end_offset: offsetFromMs(i * 4000 + 3000),
  }));
}
