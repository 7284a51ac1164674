import { describe, expect, it } from 'vitest';
import { transcriptOf as transcript } from './test-transcript';
import { formTemplateSchema, type FilledForm, type FormContextItem } from '../../src/shared/service';
import { extractForms } from './form-extractor';
import { FORM_TEMPLATES } from './form-templates';

function fill(lines: string[], item: FormContextItem): FilledForm {
  const [form] = extractForms(transcript(lines), [item], FORM_TEMPLATES);
  if (!form) throw new Error('no form');
  return form;
}

const field = (form: FilledForm, id: string) => form.fields.find((f) => f.id === id);
const values = (form: FilledForm) => Object.fromEntries(form.fields.map((f) => [f.id, f.value]));

describe('templates', () => {
  it('offer the four standard assessments, with typed fields, units and options', () => {
    expect(FORM_TEMPLATES.map((t) => t.form_template_id)).toEqual([
      'VITALS_ASSESSMENT',
      'NEURO_ASSESSMENT',
      'SKIN_ASSESSMENT',
      'RESPIRATORY_ASSESSMENT',
    ]);
    for (const template of FORM_TEMPLATES) {
      expect(() => formTemplateSchema.parse(template)).not.toThrow();
      expect(JSON.stringify(template)).not.toContain('hint');
      for (const f of template.fields) if (f.type === 'enum') expect(f.options?.length).toBeGreaterThan(1);
    }
    const vitals = FORM_TEMPLATES[0]?.fields.map((f) => f.unit);
    expect(vitals).toEqual(expect.arrayContaining(['mmHg', 'bpm', 'breaths/min', '°F', '%', 'kg']));
  });
});

describe('vital signs', () => {
  const vitals = { form_template_id: 'VITALS_ASSESSMENT' };

  it('reads spelled-out numbers with their units, and cites the utterances', () => {
    const form = fill(['blood pressure is one hundred twenty over eighty', 'heart rate seventy two'], vitals);
    expect(form.form_id).toBe('VITALS_ASSESSMENT');
    expect(form.form_template_id).toBe('VITALS_ASSESSMENT');
    expect(field(form, 'blood_pressure')).toEqual({
      id: 'blood_pressure',
      label: 'Blood pressure',
      value: '120/80',
      unit: 'mmHg',
      evidence: ['t1'],
    });
    expect(field(form, 'heart_rate')).toEqual({
      id: 'heart_rate',
      label: 'Heart rate',
      value: 72,
      unit: 'bpm',
      evidence: ['t2'],
    });
    // Not said: null, no evidence, the unit still shown.
    expect(field(form, 'temperature')).toEqual({
      id: 'temperature',
      label: 'Temperature',
      value: null,
      unit: '°F',
    });
  });

  it('reads the ways vitals are spoken and written', () => {
    const form = fill(
      [
        'let me check your vitals',
        'okay one twenty over eighty is your pressure', // pressure after the numbers: not read
        'BP 138/88 in the other arm',
        'temperature ninety eight point six',
        'her oxygen is ninety two percent on two liters',
        'he is breathing twenty four times a minute',
        'weight is one hundred eighty pounds',
        'the pain is about a seven out of ten',
        'blood sugar this morning was one hundred forty',
      ],
      vitals,
    );
    expect(values(form)).toEqual({
      blood_pressure: '138/88',
      heart_rate: null,
      respiratory_rate: 24,
      temperature: 98.6,
      oxygen_saturation: 92,
      weight: 81.6,
      pain_score: 7,
      blood_glucose: 140,
    });
  });

  it('converts Celsius, keeps the latest reading, and ignores numbers that are not the vital', () => {
    const form = fill(
      [
        'heart rate is one hundred ten',
        'the pain started three days ago',
        'temperature thirty seven point two degrees',
        'pulse ox is ninety eight percent',
        'recheck heart rate is eighty eight',
      ],
      vitals,
    );
    expect(field(form, 'heart_rate')).toMatchObject({ value: 88, evidence: ['t5'] });
    expect(field(form, 'temperature')?.value).toBe(99);
    expect(field(form, 'oxygen_saturation')?.value).toBe(98);
    expect(field(form, 'pain_score')?.value).toBeNull();
  });
});

describe('assessments by option and phrase', () => {
  it('fills the neuro assessment', () => {
    const form = fill(
      [
        'he is alert and oriented times three',
        'pupils are equal round and reactive to light',
        'glasgow coma scale is fifteen',
        'no facial droop',
        'speech is slurred',
      ],
      { form_template_id: 'NEURO_ASSESSMENT' },
    );
    expect(values(form)).toEqual({
      level_of_consciousness: 'Alert',
      orientation: 'Oriented x3',
      pupils: 'Equal and reactive',
      speech: 'Slurred',
      glasgow_coma_scale: 15,
      facial_droop: false,
      moves_all_extremities: null,
    });
    expect(field(form, 'facial_droop')?.evidence).toEqual(['t4']);
  });

  it('fills the skin assessment, telling "not intact" from "intact"', () => {
    const form = fill(
      ['skin is cool and clammy and not intact', 'there is a stage two pressure ulcer on the sacrum'],
      { form_template_id: 'SKIN_ASSESSMENT' },
    );
    expect(values(form)).toMatchObject({
      skin_temperature: 'Cool',
      skin_moisture: 'Clammy',
      skin_integrity: 'Not intact',
      pressure_injury: true,
      pressure_injury_stage: 'Stage 2',
      bruising: null,
    });
  });

  it('fills the respiratory assessment, not counting what was denied', () => {
    const form = fill(
      [
        'lungs are clear with no wheezes',
        'she is on two liters of oxygen by nasal cannula',
        'oxygen saturation ninety four percent',
        'she has a productive cough',
        'no shortness of breath',
      ],
      { form_template_id: 'RESPIRATORY_ASSESSMENT' },
    );
    expect(values(form)).toMatchObject({
      oxygen_saturation: 94,
      lung_sounds: 'Clear',
      cough: 'Productive',
      oxygen_delivery: 'Nasal cannula',
      oxygen_flow: 2,
      shortness_of_breath: false,
    });
  });
});

describe('custom schema forms', () => {
  const intake = {
    schema: {
      form_id: 'intake',
      title: 'Intake',
      fields: [
        { id: 'pain', label: 'Pain score', type: 'number' as const },
        { id: 'smoker', label: 'Smoker', type: 'boolean' as const },
        { id: 'allergies', label: 'Allergies', type: 'string' as const },
        { id: 'tetanus', label: 'Last tetanus shot', type: 'date' as const },
        {
          id: 'mobility',
          label: 'Mobility',
          type: 'enum' as const,
          options: ['Independent', 'Walker', 'Wheelchair'],
        },
        { id: 'pets', label: 'Pets at home', type: 'boolean' as const },
      ],
    },
  };

  it('matches fields by label and reads each value by its type', () => {
    const form = fill(
      [
        'what is your pain score today',
        'about a six',
        'i smoke about a pack a day',
        "i'm allergic to penicillin and sulfa",
        'my last tetanus shot was march fifth twenty twenty one',
        'for mobility she uses a walker',
      ],
      intake,
    );
    expect(form.form_id).toBe('intake');
    expect(form.form_template_id).toBeUndefined();
    expect(form.fields).toEqual([
      { id: 'pain', label: 'Pain score', value: 6, evidence: ['t1', 't2'] },
      { id: 'smoker', label: 'Smoker', value: true, evidence: ['t3'] },
      { id: 'allergies', label: 'Allergies', value: 'penicillin and sulfa', evidence: ['t4'] },
      { id: 'tetanus', label: 'Last tetanus shot', value: '2021-03-05', evidence: ['t5'] },
      { id: 'mobility', label: 'Mobility', value: 'Walker', evidence: ['t6'] },
      { id: 'pets', label: 'Pets at home', value: null },
    ]);
  });

  it('fills a custom enum from a distinctive option said without its label, never from a vague one', () => {
    const form = fill(['she is on room air', 'her pain is mild'], {
      schema: {
        form_id: 'ward',
        title: 'Ward',
        fields: [
          { id: 'o2', label: 'Oxygen delivery', type: 'enum', options: ['Room air', 'Nasal cannula'] },
          { id: 'severity', label: 'Severity', type: 'enum', options: ['Mild', 'Moderate', 'Severe'] },
        ],
      },
    });
    expect(form.fields.map((f) => [f.value, f.evidence])).toEqual([
      ['Room air', ['t1']],
      [null, undefined],
    ]);
  });

  it('takes a yes/no answer to a question about the field', () => {
    const form = fill(['do you smoke', 'no'], intake);
    expect(field(form, 'smoker')).toEqual({
      id: 'smoker',
      label: 'Smoker',
      value: false,
      evidence: ['t1', 't2'],
    });
  });

  it('fills template and schema items in the order asked, deterministically', () => {
    const entries = transcript(['blood pressure one thirty over eighty five', 'i quit smoking last year']);
    const items = [{ form_template_id: 'VITALS_ASSESSMENT' }, intake];
    const forms = extractForms(entries, items, FORM_TEMPLATES);
    expect(forms.map((f) => f.form_id)).toEqual(['VITALS_ASSESSMENT', 'intake']);
    expect(field(forms[0]!, 'blood_pressure')?.value).toBe('130/85');
    expect(field(forms[1]!, 'smoker')?.value).toBe(false);
    expect(extractForms(structuredClone(entries), items, FORM_TEMPLATES)).toEqual(forms);
  });

  it('gives an empty form for a template it does not have', () => {
    expect(extractForms(transcript(['hello']), [{ form_template_id: 'HOROSCOPE' }], FORM_TEMPLATES)).toEqual([
      { form_id: 'HOROSCOPE', form_template_id: 'HOROSCOPE', fields: [] },
    ]);
  });
});
