import { describe, expect, it } from 'vitest';
import { NOTE_TEMPLATES, templateName, templateOf, templateSections } from './note-templates';
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
});
