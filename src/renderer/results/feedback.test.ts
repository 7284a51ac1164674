import { describe, expect, it } from 'vitest';
import type { FilledForm, FormTemplate } from '../../shared/service';
import { checkFeedback, correctionValue, fieldType, RATING_NEEDED } from './feedback';

const form: FilledForm = {
  form_id: 'VITALS_ASSESSMENT',
  form_template_id: 'VITALS_ASSESSMENT',
  fields: [
    { id: 'blood_pressure', label: 'Blood pressure', value: '120/80', unit: 'mmHg' },
    { id: 'heart_rate', label: 'Heart rate', value: null, unit: 'bpm' },
    { id: 'smoker', label: 'Smoker', value: null },
  ],
};
const template: FormTemplate = {
  form_template_id: 'VITALS_ASSESSMENT',
  title: 'Vital signs',
  fields: [
    { id: 'blood_pressure', label: 'Blood pressure', type: 'string' },
    { id: 'heart_rate', label: 'Heart rate', type: 'number' },
    { id: 'smoker', label: 'Smoker', type: 'boolean' },
  ],
};

describe('correction values', () => {
  it('become numbers for number fields when numeric, and stay text otherwise', () => {
    expect(correctionValue(' 72 ', 'number')).toEqual({ ok: true, value: 72 });
    expect(correctionValue('98,6', 'number')).toEqual({ ok: true, value: 98.6 });
    expect(correctionValue('not measured', 'number')).toEqual({ ok: true, value: 'not measured' });
    expect(correctionValue('120/80', 'string')).toEqual({ ok: true, value: '120/80' });
    expect(correctionValue('72', 'string')).toEqual({ ok: true, value: '72' });
  });

  it('become true or false for boolean fields, and anything else is named as a problem', () => {
    expect(correctionValue('Yes', 'boolean')).toEqual({ ok: true, value: true });
    expect(correctionValue('false', 'boolean')).toEqual({ ok: true, value: false });
    expect(correctionValue('sometimes', 'boolean')).toEqual({ ok: false, rule: 'must be yes or no' });
  });

  it('take the field type from the template, else from the value the service filled in', () => {
    expect(fieldType(form.fields[1]!, template)).toBe('number');
    expect(fieldType(form.fields[1]!)).toBe('string');
    expect(fieldType({ id: 'x', label: 'X', value: 3 })).toBe('number');
    expect(fieldType({ id: 'x', label: 'X', value: true })).toBe('boolean');
  });
});

describe('checking feedback before it is sent', () => {
  const target = { sessionId: 'form-session-1', form, template };

  it('builds the request main takes: typed corrections for the fields filled in, trimmed comment', () => {
    const checked = checkFeedback(target, {
      rating: 4,
      comment: '  heart rate was missed ',
      corrections: { heart_rate: '72', smoker: 'no', blood_pressure: '  ' },
    });
    expect(checked).toEqual({
      ok: true,
      request: {
        sessionId: 'form-session-1',
        formId: 'VITALS_ASSESSMENT',
        feedback: {
          rating: 4,
          comment: 'heart rate was missed',
          field_corrections: [
            { id: 'heart_rate', value: 72 },
            { id: 'smoker', value: false },
          ],
        },
      },
    });
    expect(checkFeedback(target, { rating: 5, comment: ' ' })).toEqual({
      ok: true,
      request: { sessionId: 'form-session-1', formId: 'VITALS_ASSESSMENT', feedback: { rating: 5 } },
    });
  });

  it('names the field and the rule in one sentence, as the form labels it', () => {
    expect(checkFeedback(target, { rating: 0 })).toEqual({
      ok: false,
      key: 'rating',
      message: 'Rating must be 1 to 5.',
    });
    // Nothing chosen: what to do, not a rule (the form marks the rating required).
    expect(checkFeedback(target, {})).toEqual({ ok: false, key: 'rating', message: RATING_NEEDED });
    expect(checkFeedback(target, { comment: 'good', corrections: { heart_rate: '72' } })).toMatchObject({
      key: 'rating',
      message: 'Choose a rating from 1 to 5: the service needs one.',
    });
    expect(checkFeedback(target, { rating: 3, corrections: { smoker: 'sometimes' } })).toEqual({
      ok: false,
      key: 'correction:smoker',
      message: 'Correction for Smoker must be yes or no.',
    });
    expect(checkFeedback(target, { rating: 3, comment: 'x'.repeat(4_001) })).toMatchObject({
      key: 'comment',
      message: 'Comment must be at most 4,000 characters.',
    });
  });
});
