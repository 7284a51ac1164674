import { describe, expect, it } from 'vitest';
import {
  NOTE_TEMPLATES,
  templateHeadings,
  templateName,
  templateOf,
  templateSections,
} from './note-templates';
import { DEFAULT_SECTIONS, SECTION_NAMES } from './service/sections';
import { DEFAULT_SETTINGS, settingsSchema } from './settings';

describe('note templates', () => {
  it('each asks for the service’s own sections, once each, and is known by its sections', () => {
    for (const template of NOTE_TEMPLATES) {
      expect(template.sections.length, template.name).toBeGreaterThan(0);
      expect(new Set(template.sections).size, template.name).toBe(template.sections.length);
      for (const section of template.sections) expect(SECTION_NAMES).toContain(section);
      expect(templateOf(template.sections)).toBe(template.id);
    }
    expect(templateOf(['PLAN'])).toBe('custom');
  });

  it('starts with the service’s default sections; Custom is the clinician’s own list', () => {
    expect(DEFAULT_SETTINGS.noteTemplate).toBe('standard');
    expect(templateSections('standard', ['PLAN'])).toEqual(DEFAULT_SECTIONS);
    expect(templateSections('custom', ['PLAN'])).toEqual(['PLAN']);
    expect(templateName('soap')).toBe('SOAP');
    expect(templateName('custom')).toBe('Custom');
    expect(settingsSchema.shape.noteSections.safeParse([]).error?.issues[0]?.message).toBe(
      'must include at least one section',
    );
  });

  it('groups SOAP and History and physical under the headings clinicians expect, each section once and in order', () => {
    expect(templateHeadings('soap')?.map((h) => h.title)).toEqual([
      'Subjective',
      'Objective',
      'Assessment',
      'Plan',
    ]);
    expect(templateHeadings('history-and-physical')?.map((h) => h.title)).toEqual([
      'History',
      'Physical examination',
      'Assessment and plan',
    ]);
    // The plain templates are a list of sections; so is a clinician's own.
    expect(templateHeadings('standard')).toBeUndefined();
    expect(templateHeadings('custom')).toBeUndefined();
    for (const template of NOTE_TEMPLATES) {
      const headings = templateHeadings(template.id);
      if (!headings) continue;
      // Read top to bottom, the headings' sections are the template's: none lost, none twice.
      expect(
        headings.flatMap((h) => h.sections),
        template.name,
      ).toEqual(template.sections);
      for (const heading of headings) expect(heading.sections.length, heading.title).toBeGreaterThan(0);
    }
  });
});
