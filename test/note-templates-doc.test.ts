import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NOTE_TEMPLATES, templateHeadings } from '../src/shared/note-templates';

/**
 * docs/protocol.md names the note templates with the sections each asks the service for and the
 * headings it is shown under (issue 31); this keeps that table equal to src/shared/note-templates.ts.
 */
const doc = readFileSync(new URL('../docs/protocol.md', import.meta.url), 'utf8');

describe('docs/protocol.md’s note templates', () => {
  it('lists every template with the sections it asks for and the headings it is shown under', () => {
    for (const template of NOTE_TEMPLATES) {
      const headings = templateHeadings(template.id);
      const shown = headings
        ? headings.map((h) => `${h.title}: ${h.sections.join(', ')}`).join('; ')
        : "each section's own title";
      expect(doc, template.name).toContain(
        `| ${template.name} (\`${template.id}\`) | ${template.sections.join(', ')} | ${shown} |`,
      );
    }
    expect(doc).toContain('| Custom (`custom`) |');
  });
});
