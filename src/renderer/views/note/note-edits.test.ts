import { describe, expect, it } from 'vitest';
import { NOTHING_FOUND_CONTENT } from '../../../shared/service';
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

  it('leaves out a section the service found nothing for, unless the clinician wrote it', () => {
    const withEmpty = [...sections, { title: 'ALLERGIES', content: NOTHING_FOUND_CONTENT }];
    expect(editedNoteText(withEmpty, null)).toBe(
      'Chief complaint\nChest pain on stairs.\n\nPlan\nEKG and blood work.',
    );
    const draft = {
      sessionId: 's1',
      sections: { [sectionKey(2, withEmpty[2]!)]: 'No known drug allergies.' },
      fields: {},
    };
    expect(editedNoteText(withEmpty, draft)).toBe(
      'Chief complaint\nChest pain on stairs.\n\nPlan\nEKG and blood work.\n\nAllergies\nNo known drug allergies.',
    );
    // A section the clinician emptied has nothing to paste either.
    const emptied = { sessionId: 's1', sections: { [sectionKey(0, sections[0]!)]: '  \n' }, fields: {} };
    expect(editedNoteText(sections, emptied)).toBe('Plan\nEKG and blood work.');
  });

  it('copies a SOAP note under Subjective, Objective, Assessment and Plan, with the clinician’s edits', () => {
    const soap = ['CHIEF_COMPLAINT', 'HISTORY_OF_PRESENT_ILLNESS', 'PHYSICAL_EXAM', 'ASSESSMENT', 'PLAN'].map(
      (title) => ({ title, content: title === 'ASSESSMENT' ? NOTHING_FOUND_CONTENT : `${title}.` }),
    );
    const draft = { sessionId: 's1', sections: { [sectionKey(3, soap[3]!)]: 'Stable angina.' }, fields: {} };
    expect(editedNoteText(soap, draft)).toBe(
      'SUBJECTIVE\nChief complaint\nCHIEF_COMPLAINT.\n\nHistory of present illness\nHISTORY_OF_PRESENT_ILLNESS.' +
        '\n\nOBJECTIVE\nPHYSICAL_EXAM.\n\nASSESSMENT\nStable angina.\n\nPLAN\nPLAN.',
    );
  });
});
