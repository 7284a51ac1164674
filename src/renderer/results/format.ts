import {
  isNothingFound,
  STANDARD_SECTIONS,
  type SummarySection,
  type TranscriptEntry,
} from '../../shared/service';

type Offset = TranscriptEntry['start_offset'];

/** A transcript offset as the clinician reads it: m:ss, or h:mm:ss past an hour. */
export function formatOffset(offset: Offset): string {
  return formatClock(offset.hours * 3_600 + offset.minutes * 60 + offset.seconds);
}

/** Whole seconds as m:ss, or h:mm:ss past an hour (transcript times, a recording's length). */
export function formatClock(total: number): string {
  const h = Math.floor(total / 3_600);
  const m = Math.floor((total % 3_600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const TITLES = new Map<string, string>(STANDARD_SECTIONS.map((s) => [s.name, s.title]));

/** A section's title as people write it: the standard sections by their names, others as sent. */
export function sectionTitle(section: SummarySection): string {
  return TITLES.get(section.title) ?? section.title;
}

/**
 * A note section as plain text for its EHR field: the content alone (the field already has the
 * section's label, so a heading pasted in front of it would be a second one). Nothing at all for a
 * section the service found nothing for: its "Nothing relevant…" sentence is no note (issue 31).
 */
export function sectionText(section: SummarySection): string {
  return isNothingFound(section) ? '' : section.content.trim();
}
