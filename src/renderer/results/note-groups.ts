import { templateHeadings, NOTE_TEMPLATES, type NoteTemplateId } from '../../shared/note-templates';
import { STANDARD_SECTIONS, type SectionName, type SummarySection } from '../../shared/service';
import { sectionTitle } from './format';

/** A section of the service's note with its place in the summary (the place keys its edit). */
export interface NoteItem {
  section: SummarySection;
  index: number;
}

/**
 * A part of the note as it is shown and copied (issue 31). Without a heading, each section stands
 * under its own title (the Standard note). With one, the sections stand under it ("Subjective":
 * Chief complaint, History of present illness); a heading with a single section is that section,
 * under the heading's name ("Assessment"), so no title says the same thing twice.
 */
export interface NoteGroup {
  heading?: string;
  items: NoteItem[];
}

const BY_TITLE = new Map<string, SectionName>(STANDARD_SECTIONS.map((s) => [s.title.toLowerCase(), s.name]));
const NAMES = new Set<string>(STANDARD_SECTIONS.map((s) => s.name));

/** The standard section a summary title names, by its code ("PLAN") or its name ("Plan"). */
export function standardSectionName(title: string): SectionName | undefined {
  if (NAMES.has(title)) return title as SectionName;
  return BY_TITLE.get(title.trim().toLowerCase());
}

/**
 * The named template a note was made with, known by its sections in any order (a service may
 * return them in its own): the visit keeps no record of the template, and a note opened again
 * from History is grouped as it was the first time. 'custom' when no template asks for exactly these.
 */
export function templateOfNote(sections: readonly SummarySection[]): NoteTemplateId {
  const names = sections.map((s) => standardSectionName(s.title));
  const found = NOTE_TEMPLATES.find(
    (t) =>
      t.sections.length === names.length &&
      new Set(names).size === names.length &&
      t.sections.every((name) => names.includes(name)),
  );
  return found?.id ?? 'custom';
}

/** The note's parts: under the template's headings where it has them, else one list of sections. */
export function noteGroups(sections: readonly SummarySection[]): NoteGroup[] {
  const items = sections.map((section, index) => ({ section, index }));
  const headings = templateHeadings(templateOfNote(sections));
  if (!headings) return [{ items }];
  // templateOfNote matched every section once, so each heading finds each of its sections.
  return headings.map((heading) => ({
    heading: heading.title,
    items: heading.sections.flatMap((name) =>
      items.filter((item) => standardSectionName(item.section.title) === name),
    ),
  }));
}

/** A section's title where it stands: its heading's name when it is the heading's only section. */
export function itemTitle(group: NoteGroup, item: NoteItem): string {
  return group.heading !== undefined && group.items.length === 1 ? group.heading : sectionTitle(item.section);
}

/**
 * The note as one text for a free-text EHR field (Copy all): the headings in capitals, as
 * clinicians write them in a pasted note, each section's title and text, a blank line between
 * sections. `textOf` gives a section's text as the clinician left it; a section with no text (the
 * service found nothing, nobody wrote anything) is left out, and so is a heading left with none.
 */
export function noteGroupsText(
  groups: readonly NoteGroup[],
  textOf: (item: NoteItem) => string,
  closingLines: readonly string[] = [],
): string {
  const blocks: string[] = [];
  for (const group of groups) {
    const written = group.items.filter((item) => textOf(item) !== '');
    if (written.length === 0) continue;
    if (group.heading === undefined) {
      for (const item of written) blocks.push(`${sectionTitle(item.section)}\n${textOf(item)}`);
    } else if (group.items.length === 1) {
      blocks.push(`${group.heading.toUpperCase()}\n${textOf(written[0]!)}`);
    } else {
      const sections = written.map((item) => `${sectionTitle(item.section)}\n${textOf(item)}`);
      blocks.push(`${group.heading.toUpperCase()}\n${sections.join('\n\n')}`);
    }
  }
  return [...blocks, ...(closingLines.length > 0 ? [closingLines.join('\n')] : [])].join('\n\n');
}
