import { describe, expect, it } from 'vitest';
import {
  checkDraft,
  customFormProblems,
  emptyCustomForm,
  demoEncounterId,
  newDraft,
  type CustomFormDraft,
} from './draft';

const NOW = new Date(2026, 10, 22, 9, 5, 7);

describe('a new visit', () => {
  it('outside the demo starts with no encounter ID: Start names the field rather than make one up', () => {
    const draft = newDraft(NOW, 'PEDIATRICS');
    expect(draft.encounterId).toBe('');
    expect(checkDraft(draft)).toEqual({
      ok: false,
      problems: { encounterId: 'Encounter ID is needed: type or paste it as in your EHR.' },
    });
  });

  it('the demo’s made-up ID is marked as the demo’s, and counts as none once the service is a real one', () => {
    const draft = newDraft(NOW, 'PEDIATRICS', true);
    expect(draft).toMatchObject({ encounterId: 'demo20261122090507', madeUpForDemo: true });
    expect(checkDraft(draft, { now: NOW, demo: false })).toEqual({
      ok: false,
      problems: { encounterId: 'Encounter ID is needed: type or paste it as in your EHR.' },
    });
  });

  it('a telehealth visit is marked a video visit; a visit in the room is not', () => {
    const draft = { ...newDraft(NOW, 'PEDIATRICS'), encounterId: 'bed12' };
    const video = checkDraft(draft, { video: true });
    expect(video.ok && video.request.kind === 'ambient' && video.request.video).toBe(true);
    const room = checkDraft(draft);
    expect(room.ok && 'video' in room.request).toBe(false);
  });

  it('the demo can start without typing anything: its made-up id, default sections', () => {
    const draft = newDraft(NOW, 'PEDIATRICS', true);
    const checked = checkDraft(draft, { now: NOW, demo: true });
    expect(checked).toEqual({
      ok: true,
      request: {
        kind: 'ambient',
        encounterId: 'demo20261122090507',
        context: {
          provider_specialty: 'PEDIATRICS',
          sections: [
            'CHIEF_COMPLAINT',
            'HISTORY_OF_PRESENT_ILLNESS',
            'PHYSICAL_EXAM',
            'ASSESSMENT_AND_PLAN',
            'MEDICATIONS',
          ],
        },
      },
    });
  });

  it('sends the encounter id as the service takes it, and names the field and the rule when nothing is left', () => {
    // Issue 31: an id as the EHR prints it is taken; its letters and digits are sent.
    const pasted = checkDraft({ ...newDraft(NOW, 'FAMILY_MEDICINE'), encounterId: ' ENC-2024-00871 ' });
    expect(pasted.ok && pasted.request.encounterId).toBe('ENC202400871');
    // Issue 37: History shows it as the EHR prints it; an ID that needs no change is not repeated.
    expect(pasted.ok && pasted.request.shownAs).toBe('ENC-2024-00871');
    const plain = checkDraft({ ...newDraft(NOW, 'FAMILY_MEDICINE'), encounterId: 'ENC202400871' });
    expect(plain.ok && 'shownAs' in plain.request).toBe(false);
    expect(checkDraft({ ...newDraft(NOW, 'FAMILY_MEDICINE'), encounterId: '--/--' })).toEqual({
      ok: false,
      problems: {
        encounterId:
          'Encounter ID must have at least one letter or digit (A–Z, a–z, 0–9): the service takes only those.',
      },
    });
    expect(checkDraft({ ...newDraft(NOW, 'FAMILY_MEDICINE'), encounterId: 'a'.repeat(256) })).toEqual({
      ok: false,
      problems: { encounterId: 'Encounter ID must be at most 255 letters and digits; this one has 256.' },
    });
    expect(demoEncounterId(NOW)).toMatch(/^[A-Za-z0-9]+$/);
  });

  it('sends patient details only when given, and refuses a future date of birth by its label', () => {
    const draft = {
      ...newDraft(NOW, 'FAMILY_MEDICINE'),
      encounterId: 'visit20261122090507',
      dateOfBirth: '1980-02-29',
      sex: 'FEMALE' as const,
    };
    const ok = checkDraft(draft);
    expect(ok.ok && ok.request.kind === 'ambient' && ok.request.context?.patient_info).toEqual({
      date_of_birth: '1980-02-29',
      sex: 'FEMALE',
    });
    const future = checkDraft({ ...draft, dateOfBirth: '2999-01-01' });
    expect(future).toEqual({
      ok: false,
      problems: {
        'context.patient_info.date_of_birth': 'Date of birth must be a real date, not in the future.',
      },
    });
    expect(checkDraft({ ...draft, dateOfBirth: '1981-02-29' }).ok).toBe(false);
    // Typed as people write it, sent as the service wants it.
    const typed = checkDraft({ ...draft, dateOfBirth: '9 Apr 1961' }, { now: NOW, locale: 'en-GB' });
    expect(typed.ok && typed.request.kind === 'ambient' && typed.request.context?.patient_info).toEqual({
      date_of_birth: '1961-04-09',
      sex: 'FEMALE',
    });
  });

  it('needs at least one note section', () => {
    expect(
      checkDraft({ ...newDraft(NOW, 'FAMILY_MEDICINE'), encounterId: 'visit20261122090507', sections: [] }),
    ).toEqual({
      ok: false,
      problems: { 'context.sections': 'Note sections must include at least one section.' },
    });
  });
});

describe('forms', () => {
  const vitals: CustomFormDraft = {
    formId: 'vitals2',
    title: 'Vitals',
    fields: [
      { id: 'bp', label: 'Blood pressure', type: 'string', unit: 'mmHg', options: '' },
      { id: 'smoker', label: 'Smoker', type: 'enum', unit: '', options: 'never, former , current,' },
    ],
  };

  it('sends each form as exactly one of a template or a schema', () => {
    const checked = checkDraft({
      ...newDraft(NOW, 'FAMILY_MEDICINE'),
      encounterId: 'visit20261122090507',
      forms: [
        { kind: 'template', templateId: 'VITALS_ASSESSMENT' },
        { kind: 'custom', form: vitals },
      ],
    });
    expect(checked.ok && checked.request.kind === 'ambient' && checked.request.formItems).toEqual([
      { form_template_id: 'VITALS_ASSESSMENT' },
      {
        schema: {
          form_id: 'vitals2',
          title: 'Vitals',
          fields: [
            { id: 'bp', label: 'Blood pressure', type: 'string', unit: 'mmHg' },
            { id: 'smoker', label: 'Smoker', type: 'enum', options: ['never', 'former', 'current'] },
          ],
        },
      },
    ]);
  });

  it('names each problem of a custom form by field number', () => {
    expect(customFormProblems(emptyCustomForm())).toEqual({
      formId: 'Form ID must not be empty.',
      title: 'Form title must not be empty.',
      'fields.0.id': 'Field 1 ID must not be empty.',
      'fields.0.label': 'Field 1 label must not be empty.',
    });
    expect(
      customFormProblems({
        ...vitals,
        fields: [
          { id: 'a', label: 'A', type: 'enum', unit: '', options: ' , ' },
          { id: 'a', label: 'B', type: 'number', unit: '', options: '' },
        ],
      }),
    ).toEqual({
      'fields.0.options': 'Field 1 options must list the choices, separated by commas.',
      'fields.1.id': 'Field 2 ID must be unique.',
    });
    expect(customFormProblems({ ...vitals, fields: [] })).toEqual({
      fields: 'Fields must have at least one field.',
    });
  });

  it('refuses the same form twice and passes custom form problems up under the form', () => {
    const twice = checkDraft({
      ...newDraft(NOW, 'FAMILY_MEDICINE'),
      encounterId: 'visit20261122090507',
      forms: [
        { kind: 'template', templateId: 'VITALS_ASSESSMENT' },
        { kind: 'template', templateId: 'VITALS_ASSESSMENT' },
        { kind: 'custom', form: { ...vitals, title: '' } },
      ],
    });
    expect(twice).toEqual({
      ok: false,
      problems: {
        'forms.1': 'This form is listed twice; remove one.',
        'forms.2.title': 'Form title must not be empty.',
      },
    });
  });
});
