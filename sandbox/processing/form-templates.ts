/**
 * The sandbox's predefined medical form templates, and how to find each field in a transcript.
 * The hints (phrases, option synonyms, value kinds) stay in the sandbox; the wire only carries
 * FORM_TEMPLATES.
 */
import type { FormField, FormTemplate } from '../../src/shared/service';

/** How a value is read when the field's type alone is not enough. */
export type ValueKind =
  | 'blood_pressure' // "120 over 80" → "120/80"
  | 'temperature' // °F; a Celsius reading (30–45) is converted
  | 'weight' // kg; pounds are converted
  | 'score_of_ten' // "seven out of ten"
  | 'number_before'; // the number just before the phrase: "two liters"

export interface FieldHint {
  /** Phrases that say the utterance is about this field (the label is always one). */
  phrases?: string[];
  /** Phrases that look like `phrases` but mean something else ("pulse ox" is not a pulse). */
  exclude?: string[];
  /** Other ways each enum option is said. */
  synonyms?: Record<string, string[]>;
  /** Enum options are distinctive enough to count without a phrase ("room air"). */
  anywhere?: boolean;
  kind?: ValueKind;
  /** Plausible values; numbers outside are other numbers in the sentence. */
  range?: [number, number];
}

export type HintedField = FormField & { hint?: FieldHint };

interface HintedTemplate {
  form_template_id: string;
  title: string;
  fields: HintedField[];
}

const RESPIRATORY_RATE: HintedField = {
  id: 'respiratory_rate',
  label: 'Respiratory rate',
  type: 'number',
  unit: 'breaths/min',
  hint: { phrases: ['respirations', 'respiration', 'breathing', 'breaths'], range: [4, 70] },
};

const OXYGEN_SATURATION: HintedField = {
  id: 'oxygen_saturation',
  label: 'Oxygen saturation',
  type: 'number',
  unit: '%',
  hint: { phrases: ['saturation', 'sats', 'spo2', 'o2 sat', 'pulse ox', 'oxygen'], range: [50, 100] },
};

const TEMPLATES: HintedTemplate[] = [
  {
    form_template_id: 'VITALS_ASSESSMENT',
    title: 'Vital signs',
    fields: [
      {
        id: 'blood_pressure',
        label: 'Blood pressure',
        type: 'string',
        unit: 'mmHg',
        hint: { phrases: ['bp', 'pressure'], kind: 'blood_pressure' },
      },
      {
        id: 'heart_rate',
        label: 'Heart rate',
        type: 'number',
        unit: 'bpm',
        hint: { phrases: ['pulse', 'heart is beating'], exclude: ['pulse ox'], range: [20, 250] },
      },
      RESPIRATORY_RATE,
      {
        id: 'temperature',
        label: 'Temperature',
        type: 'number',
        unit: '°F',
        hint: { phrases: ['temp', 'fever'], kind: 'temperature' },
      },
      OXYGEN_SATURATION,
      {
        id: 'weight',
        label: 'Weight',
        type: 'number',
        unit: 'kg',
        hint: { phrases: ['weighs', 'weigh'], kind: 'weight', range: [0.5, 400] },
      },
      {
        id: 'pain_score',
        label: 'Pain score',
        type: 'number',
        unit: '/10',
        hint: { phrases: ['pain', 'pain level'], kind: 'score_of_ten', range: [0, 10] },
      },
      {
        id: 'blood_glucose',
        label: 'Blood glucose',
        type: 'number',
        unit: 'mg/dL',
        hint: { phrases: ['blood sugar', 'glucose', 'sugar'], range: [20, 800] },
      },
    ],
  },
  {
    form_template_id: 'NEURO_ASSESSMENT',
    title: 'Neurological assessment',
    fields: [
      {
        id: 'level_of_consciousness',
        label: 'Level of consciousness',
        type: 'enum',
        options: ['Alert', 'Drowsy', 'Responds to voice', 'Responds to pain', 'Unresponsive'],
        hint: {
          anywhere: true,
          synonyms: {
            Drowsy: ['sleepy', 'lethargic'],
            'Responds to voice': ['wakes to voice'],
            'Responds to pain': ['responds only to pain'],
          },
        },
      },
      {
        id: 'orientation',
        label: 'Orientation',
        type: 'enum',
        options: ['Oriented x4', 'Oriented x3', 'Oriented x2', 'Oriented x1', 'Disoriented'],
        hint: {
          anywhere: true,
          synonyms: {
            'Oriented x4': ['oriented times 4', 'oriented to person place time and situation'],
            'Oriented x3': ['oriented times 3', 'oriented to person place and time'],
            'Oriented x2': ['oriented times 2', 'oriented to person and place'],
            'Oriented x1': ['oriented times 1', 'oriented to person only', 'oriented to person'],
            Disoriented: ['confused', 'not oriented'],
          },
        },
      },
      {
        id: 'pupils',
        label: 'Pupils',
        type: 'enum',
        options: ['Equal and reactive', 'Sluggish', 'Non-reactive', 'Unequal'],
        hint: {
          phrases: ['pupil'],
          synonyms: {
            'Equal and reactive': ['equal round and reactive', 'perrla', 'reactive to light', 'brisk'],
            'Non-reactive': ['nonreactive', 'not reactive', 'fixed'],
          },
        },
      },
      {
        id: 'speech',
        label: 'Speech',
        type: 'enum',
        options: ['Clear', 'Slurred', 'Aphasic'],
        hint: { phrases: ['speaking'], synonyms: { Slurred: ['slurring'] } },
      },
      {
        id: 'glasgow_coma_scale',
        label: 'Glasgow coma scale',
        type: 'number',
        unit: 'points',
        hint: { phrases: ['glasgow', 'gcs', 'coma scale'], range: [3, 15] },
      },
      {
        id: 'facial_droop',
        label: 'Facial droop',
        type: 'boolean',
        hint: { phrases: ['face droop', 'droop'] },
      },
      {
        id: 'moves_all_extremities',
        label: 'Moves all extremities',
        type: 'boolean',
        hint: { phrases: ['moves all', 'moving all', 'moves both arms and legs'] },
      },
    ],
  },
  {
    form_template_id: 'SKIN_ASSESSMENT',
    title: 'Skin assessment',
    fields: [
      {
        id: 'skin_color',
        label: 'Skin color',
        type: 'enum',
        options: ['Normal', 'Pale', 'Flushed', 'Jaundiced', 'Cyanotic'],
        hint: {
          phrases: ['skin'],
          synonyms: {
            Normal: ['normal for', 'color is normal', 'pink'],
            Jaundiced: ['yellow'],
            Cyanotic: ['blue'],
          },
        },
      },
      {
        id: 'skin_temperature',
        label: 'Skin temperature',
        type: 'enum',
        options: ['Warm', 'Cool', 'Hot'],
        hint: { phrases: ['skin'], synonyms: { Cool: ['cold'] } },
      },
      {
        id: 'skin_moisture',
        label: 'Skin moisture',
        type: 'enum',
        options: ['Dry', 'Moist', 'Diaphoretic', 'Clammy'],
        hint: { phrases: ['skin'], synonyms: { Diaphoretic: ['sweaty'] } },
      },
      {
        id: 'skin_integrity',
        label: 'Skin integrity',
        type: 'enum',
        options: ['Intact', 'Not intact'],
        hint: { phrases: ['skin'], synonyms: { 'Not intact': ['broken', 'breakdown', 'open area'] } },
      },
      {
        id: 'pressure_injury',
        label: 'Pressure injury',
        type: 'boolean',
        hint: { phrases: ['pressure ulcer', 'pressure sore', 'bedsore'] },
      },
      {
        id: 'pressure_injury_stage',
        label: 'Pressure injury stage',
        type: 'enum',
        options: ['Stage 1', 'Stage 2', 'Stage 3', 'Stage 4', 'Unstageable', 'Deep tissue injury'],
        hint: { anywhere: true },
      },
      {
        id: 'braden_score',
        label: 'Braden score',
        type: 'number',
        unit: 'points',
        hint: { phrases: ['braden'], range: [6, 23] },
      },
      { id: 'bruising', label: 'Bruising', type: 'boolean', hint: { phrases: ['bruise', 'bruises'] } },
      { id: 'wound', label: 'Wound', type: 'string', hint: { phrases: ['incision'] } },
    ],
  },
  {
    form_template_id: 'RESPIRATORY_ASSESSMENT',
    title: 'Respiratory assessment',
    fields: [
      RESPIRATORY_RATE,
      OXYGEN_SATURATION,
      {
        id: 'breathing_effort',
        label: 'Breathing effort',
        type: 'enum',
        options: ['Unlabored', 'Labored', 'Shallow'],
        hint: {
          phrases: ['breathing', 'respirations', 'respiratory', 'breaths'],
          synonyms: { Unlabored: ['not labored', 'easy'], Labored: ['accessory muscles', 'neck muscles'] },
        },
      },
      {
        id: 'lung_sounds',
        label: 'Lung sounds',
        type: 'enum',
        options: ['Clear', 'Crackles', 'Wheezes', 'Diminished', 'Rhonchi'],
        hint: {
          phrases: ['lung', 'breath sounds', 'bases'],
          synonyms: { Crackles: ['rales'], Wheezes: ['wheezing', 'wheeze'], Diminished: ['decreased'] },
        },
      },
      {
        id: 'cough',
        label: 'Cough',
        type: 'enum',
        options: ['None', 'Dry', 'Productive'],
        hint: {
          phrases: ['coughing'],
          synonyms: { None: ['no cough', 'not coughing'], Productive: ['coughing up', 'sputum', 'phlegm'] },
        },
      },
      {
        id: 'oxygen_delivery',
        label: 'Oxygen delivery',
        type: 'enum',
        options: ['Room air', 'Nasal cannula', 'Face mask', 'Non-rebreather mask', 'High-flow nasal cannula'],
        hint: { anywhere: true, synonyms: { 'Nasal cannula': ['liters of oxygen', 'nasal prongs'] } },
      },
      {
        id: 'oxygen_flow',
        label: 'Oxygen flow',
        type: 'number',
        unit: 'L/min',
        hint: { phrases: ['liters', 'liter'], kind: 'number_before', range: [0.5, 60] },
      },
      {
        id: 'shortness_of_breath',
        label: 'Shortness of breath',
        type: 'boolean',
        hint: { phrases: ['short of breath', 'trouble breathing', 'catch my breath', 'breathless'] },
      },
    ],
  },
];

/** The templates as the service lists them. */
// protocol: Form filling (templates: at least VITALS, NEURO, SKIN and RESPIRATORY assessments)
export const FORM_TEMPLATES: readonly FormTemplate[] = TEMPLATES.map((t) => ({
  form_template_id: t.form_template_id,
  title: t.title,
  fields: t.fields.map(({ hint: _hint, ...field }) => field),
}));

/** A template's fields with their hints, or undefined for a template the sandbox does not know. */
export function hintedFields(formTemplateId: string): HintedField[] | undefined {
  return TEMPLATES.find((t) => t.form_template_id === formTemplateId)?.fields;
}
