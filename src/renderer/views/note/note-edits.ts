import type { NoteDraft } from '../../../shared/contract/notes';
import type { SummarySection } from '../../../shared/service';
import { sectionText, sectionTitle } from '../../results/format';

/**
 * The note as the clinician left it (issue 29): the service's sections with the clinician's edits
 * over them. A section is known by its place and title, so an edit never lands on another section.
 */
export function sectionKey(index: number, section: SummarySection): string {
  return `${index}:${section.title}`;
}

/** The section's text as the clinician left it: their edit, or the service's. */
export function editedSectionText(
  section: SummarySection,
  key: string,
  draft: NoteDraft | null | undefined,
): string {
  const edited = draft?.sections[key];
  return edited !== undefined ? edited.trim() : sectionText(section);
}

/** The sections with the clinician's edits, for Copy all and for the EHR. */
export function editedSections(
  sections: readonly SummarySection[],
  draft: NoteDraft | null | undefined,
): SummarySection[] {
  return sections.map((section, index) => ({
    ...section,
    content: editedSectionText(section, sectionKey(index, section), draft),
  }));
}

/** Whole note for one free-text EHR field: each title, its text, a blank line between; then any closing lines. */
export function editedNoteText(
  sections: readonly SummarySection[],
  draft: NoteDraft | null | undefined,
  closingLines: readonly string[] = [],
): string {
  const body = editedSections(sections, draft)
    .map((section) => `${sectionTitle(section)}\n${section.content}`)
    .join('\n\n');
  return closingLines.length > 0 ? `${body}\n\n${closingLines.join('\n')}` : body;
}
