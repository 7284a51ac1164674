import { describe, expect, it } from 'vitest';
import type { FilledForm } from '../../shared/service';
import {
  entriesFor,
  evidenceText,
  fieldEdit,
  fieldKey,
  formText,
  formTitle,
  shownField,
  valueText,
  withUnit,
} from './form-text';

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
  it('copies "Label: value unit" lines under the title, leaving out what the visit did not mention', () => {
    expect(formText(vitals, 'Vital signs')).toBe(
      [
        'Vital signs',
        'Blood pressure: 120/80 mmHg',
        'Heart rate: 72 bpm',
        'Oxygen saturation: 98%',
        'Pain score: 7/10',
        'Smoker: No',
      ].join('\n'),
    );
    expect(formText(vitals, 'Vital signs')).not.toContain('not mentioned');
    // A blank the service sent is nothing found too; a form with nothing found is its title alone.
    const blank: FilledForm = {
      form_id: 'VITALS_ASSESSMENT',
      fields: [
        { id: 'heart_rate', label: 'Heart rate', value: ' ', unit: 'bpm' },
        { id: 'temperature', label: 'Temperature', value: null, unit: '°F' },
      ],
    };
    expect(formText(blank, 'Vital signs')).toBe('Vital signs');
    expect(shownField(blank, blank.fields[0]!, null)).toEqual({ value: null, unit: 'bpm', edited: false });
  });

  it('copies the clinician’s corrected values and units over the service’s, and only those', () => {
    const edits = {
      'VITALS_ASSESSMENT/heart_rate': { value: '88', unit: '/min' },
      'VITALS_ASSESSMENT/temperature': { value: ' 37.2 ', unit: '°C ' },
      'VITALS_ASSESSMENT/smoker': { value: 'Yes', unit: '' },
      // Another form's field of the same id is not this one.
      'INTAKE/blood_pressure': { value: '90/60', unit: 'mmHg' },
    };
    expect(formText(vitals, 'Vital signs', edits)).toBe(
      [
        'Vital signs',
        'Blood pressure: 120/80 mmHg',
        'Heart rate: 88/min',
        'Oxygen saturation: 98%',
        'Pain score: 7/10',
        'Temperature: 37.2 °C',
        'Smoker: Yes',
      ].join('\n'),
    );
    expect(formText(vitals, 'Vital signs', {})).toBe(formText(vitals, 'Vital signs'));
    expect(formText(vitals, 'Vital signs', null)).toBe(formText(vitals, 'Vital signs'));
  });

  it('leaves out a value the clinician emptied, never copying a bare unit', () => {
    const edits = { 'VITALS_ASSESSMENT/blood_pressure': { value: '  ', unit: 'mmHg' } };
    expect(formText(vitals, 'Vital signs', edits).split('\n')[1]).toBe('Heart rate: 72 bpm');
    expect(formText(vitals, 'Vital signs', edits)).not.toContain('Blood pressure');
    expect(shownField(vitals, vitals.fields[0]!, edits)).toEqual({ value: null, unit: 'mmHg', edited: true });
  });

  it('keys a field’s edit by its form and id', () => {
    expect(fieldKey(vitals, vitals.fields[1]!)).toBe('VITALS_ASSESSMENT/heart_rate');
  });

  it('keeps no edit for the service’s own value and unit, as numbers, yes/no and blanks read', () => {
    const [bp, hr, , , temperature, smoker] = vitals.fields;
    expect(fieldEdit(hr!, { value: '72', unit: 'bpm' })).toBeNull();
    expect(fieldEdit(hr!, { value: ' 72 ', unit: 'bpm ' })).toBeNull();
    expect(fieldEdit(smoker!, { value: 'No', unit: '' })).toBeNull();
    expect(fieldEdit(temperature!, { value: '', unit: '°F' })).toBeNull();
    // A changed value or a changed unit alone is an edit, kept as typed.
    expect(fieldEdit(hr!, { value: '80 ', unit: 'bpm' })).toEqual({ value: '80 ', unit: 'bpm' });
    expect(fieldEdit(bp!, { value: '120/80', unit: 'kPa' })).toEqual({ value: '120/80', unit: 'kPa' });
    expect(fieldEdit(temperature!, { value: '99.1', unit: '°F' })).toEqual({ value: '99.1', unit: '°F' });
    // A stored edit equal to the service's shows as the service's, not "Edited".
    expect(shownField(vitals, hr!, { 'VITALS_ASSESSMENT/heart_rate': { value: '72', unit: 'bpm' } })).toEqual(
      {
        value: '72',
        unit: 'bpm',
        edited: false,
      },
    );
    expect(shownField(vitals, smoker!, undefined)).toEqual({ value: 'No', unit: undefined, edited: false });
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
