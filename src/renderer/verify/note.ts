/**
 * The check over a whole note: which lines each section is checked against, each section's flags,
 * and the note's total (its header's count).
 */
import { isNothingFound, type SummarySection, type TranscriptEntry } from '../../shared/service';
import { checkRead, type CheckFlag, type SaidLine } from './check';
import { readLines, readNote, type Read } from './reading';

/**
 * The lines a section is checked against: those it cites, in the transcript's order. The whole
 * transcript when it cites none, or when an id names no line (issue 38, "Bad input": such an id
 * is ignored for the check, and the whole transcript is used).
 */
export function linesToCheck<L extends SaidLine & Pick<TranscriptEntry, 'transcript_id'>>(
  sources: readonly string[] | undefined,
  transcript: readonly L[],
): readonly L[] {
  if (!sources || sources.length === 0) return transcript;
  const ids = new Set(transcript.map((line) => line.transcript_id));
  if (!sources.every((id) => ids.has(id))) return transcript;
  const cited = new Set(sources);
  return transcript.filter((line) => cited.has(line.transcript_id));
}

/**
 * Each section's flags, in the note's order. `content` is what the section shows: the service's
 * text, or the clinician's edit of it. A section the service found nothing for has none.
 */
export function checkNote(
  sections: readonly Pick<SummarySection, 'content' | 'source_transcripts'>[],
  transcript: readonly (SaidLine & Pick<TranscriptEntry, 'transcript_id'>)[],
): CheckFlag[][] {
  // The whole transcript (for every section that cites none) is read once.
  const read = new Map<readonly SaidLine[], Read>();
  return sections.map((section) => {
    if (isNothingFound(section)) return [];
    const lines = linesToCheck(section.source_transcripts, transcript);
    let said = read.get(lines);
    if (!said) read.set(lines, (said = readLines(lines.map((l) => l.transcript))));
    return checkRead(readNote(section.content), said);
  });
}

/** The note header's count: every section's flags. */
export function totalToCheck(perSection: readonly (readonly CheckFlag[])[]): number {
  return perSection.reduce((sum, flags) => sum + flags.length, 0);
}
