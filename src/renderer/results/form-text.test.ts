import { describe, expect, it } from 'vitest';
import type { FilledForm } from '../../shared/service';
import { entriesFor, evidenceText, formText, formTitle, valueText, withUnit } from './form-text';

const vitals: FilledForm = {
  form_id: 'VITALS_ASSESSMENT',
  form_template_id: 'VITALS_ASSESSMENT',
  fields: [
    { id: 'blood_pressure', label: 'Blood pressure', value: '120/80', unit: 'mmHg', evidence: ['t6'] },
    { id: 'heart_rate', label: 'Heart rate', value: 72, unit: 'bpm', evidence: ['t6'] },
    { id: 'oxygen_saturation', label: 'Oxygen saturation', value: 98, unit: '%' },
    { id: 'pain_score', label: 'Pain score', value: 7, unit: '/10' },
    { id: 'temperature', label: 'Temperature', value: null, unit: '°F' },
    { id: 'smoker', label: 'Smoker', value: false },
  ],
};

const at = (seconds: number) => ({ hours: 0, minutes: 0, seconds, nanos: 0 });

describe('a filled form as text', () => {
  it('copies "Label: value unit" lines under the title, naming what the visit did not mention', () => {
    expect(formText(vitals, 'Vital signs')).toBe(
      [
        'Vital signs',
        'Blood pressure: 120/80 mmHg',
        'Heart rate: 72 bpm',
        'Oxygen saturation: 98%',
        'Pain score: 7/10',
        'Temperature: not mentioned',
        'Smoker: No',
      ].join('\n'),
    );
  });

  it('reads values as words, and leaves null for the caller to say', () => {
    expect(valueText(true)).toBe('Yes');
    expect(valueText(0)).toBe('0');
    expect(valueText('')).toBe('');
    expect(valueText(null)).toBeNull();
    expect(withUnit('37', undefined)).toBe('37');
  });

  it('names a form by its template title when the templates are known', () => {
    const templates = [{ form_template_id: 'VITALS_ASSESSMENT', title: 'Vital signs', fields: [] }];
    expect(formTitle(vitals, templates)).toBe('Vital signs');
    expect(formTitle(vitals)).toBe('VITALS_ASSESSMENT');
    expect(formTitle({ form_id: 'intake', fields: [] }, templates)).toBe('intake');
  });

  it('finds the evidence sentences in transcript order, ignoring ids the transcript lacks', () => {
    const transcript = [
      { transcript_id: 't1', transcript: 'Good morning.', start_offset: at(1), end_offset: at(3) },
      {
        transcript_id: 't6',
        transcript: ' Pressure is 120 over 80. ',
        start_offset: at(27),
        end_offset: at(31),
      },
    ];
    expect(entriesFor(['t6', 't9', 't1'], transcript).map((e) => e.transcript_id)).toEqual(['t1', 't6']);
    expect(entriesFor(undefined, transcript)).toEqual([]);
    expect(evidenceText(transcript[1]!)).toBe('0:27 “Pressure is 120 over 80.”');
  });
});
