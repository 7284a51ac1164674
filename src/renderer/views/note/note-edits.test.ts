import { describe, expect, it } from 'vitest';
import { editedNoteText, sectionKey } from './note-edits';

const sections = [
  { title: 'Chief complaint', content: ' Chest pain on stairs.\n' },
  { title: 'Plan', content: 'EKG and blood work.' },
];

describe('the note as the clinician left it (Copy all)', () => {
  it('is the titled sections with blank lines between, the standard ones by their names', () => {
    expect(editedNoteText(sections, null)).toBe(
      'Chief complaint\nChest pain on stairs.\n\nPlan\nEKG and blood work.',
    );
    // The service may send a standard section by its code: it is shown and copied by its name.
    expect(editedNoteText([{ title: 'HISTORY_OF_PRESENT_ILLNESS', content: 'Two days.' }], null)).toBe(
      'History of present illness\nTwo days.',
    );
  });

  it('gives the edited sections, the others as the service wrote them, then the closing lines', () => {
    const draft = {
      sessionId: 's1',
      sections: { [sectionKey(1, sections[1]!)]: 'Stress test.\nReview in a week.\n' },
      fields: {},
    };
    expect(editedNoteText(sections, draft, ['Consent to ambient recording: verbal, 14:02, dr-x.'])).toBe(
      'Chief complaint\nChest pain on stairs.\n\nPlan\nStress test.\nReview in a week.\n\nConsent to ambient recording: verbal, 14:02, dr-x.',
    );
    // An edit is known by place and title: a section renamed by the service is not edited.
    expect(editedNoteText([sections[0]!, { title: 'Other', content: 'X.' }], draft)).toContain('Other\nX.');
  });
});
