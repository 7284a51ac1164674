import type { NoteDraft } from '../../../shared/contract/notes';
import type { SummarySection } from '../../../shared/service';
import { sectionText } from '../../results/format';
import { noteGroups, noteGroupsText } from '../../results/note-groups';

/**
 * The note as the clinician left it (issue 29): the service's sections with the clinician's edits
 * over them. A section is known by its place and title, so an edit never lands on another section.
 */
export function sectionKey(index: number, section: SummarySection): string {
  return `${index}:${section.title}`;
}

/** The section's text as the clinician left it: their edit, or the service's ('' where it found nothing). */
export function editedSectionText(
  section: SummarySection,
  key: string,
  draft: NoteDraft | null | undefined,
): string {
  const edited = draft?.sections[key];
  return edited !== undefined ? edited.trim() : sectionText(section);
}

/**
 * Whole note for one free-text EHR field (Copy all): under the template's headings where it has
 * them (issue 31), each title and its text, a blank line between; then any closing lines. A
 * section with nothing in it, as the service found nothing and nobody wrote anything, is left out.
 */
export function editedNoteText(
  sections: readonly SummarySection[],
  draft: NoteDraft | null | undefined,
  closingLines: readonly string[] = [],
): string {
  return noteGroupsText(
    noteGroups(sections),
    ({ section, index }) => editedSectionText(section, sectionKey(index, section), draft),
    closingLines,
  );
}
