import { describe, expect, it } from 'vitest';
import { readLines, readNote } from './reading';

/** The values a note's text states, as [kind, shown, as written]. */
function values(text: string) {
  const read = readNote(text);
  return read.found.values.map((v) => [
    v.kind,
    v.shown,
    text.slice(read.tokens[v.first]!.start, read.tokens[v.next - 1]!.end),
  ]);
}

describe('the values a section states', () => {
  it('finds doses in every unit, typed or spelled, with commas and decimals', () => {
    expect(values('Metformin 500 mg, levothyroxine 88 mcg, ceftriaxone 1 g, amoxicillin 7.5 mL.')).toEqual([
      ['dose', '500 mg', '500 mg'],
      ['dose', '88 mcg', '88 mcg'],
      ['dose', '1 g', '1 g'],
      ['dose', '7.5 mL', '7.5 mL'],
    ]);
    expect(
      values('Vitamin D 50,000 units. Insulin 10 IU. B12 1000 micrograms. Tylenol 650 milligrams.'),
    ).toEqual([
      ['dose', '50000 units', '50,000 units'],
      ['dose', '10 units', '10 IU'],
      ['dose', '1000 mcg', '1000 micrograms'],
      ['dose', '650 mg', '650 milligrams'],
    ]);
    expect(values('Aspirin 81MG. Amoxicillin 5 millilitres, then 10 milliliters, 2 grams.')).toEqual([
      ['dose', '81 mg', '81MG'],
      ['dose', '5 mL', '5 millilitres'],
      ['dose', '10 mL', '10 milliliters'],
      ['dose', '2 g', '2 grams'],
    ]);
  });

  it('finds durations in days, weeks and months, and ranges', () => {
    expect(values('Cough for 3 days, then 2 weeks x 1 month. A 10-day course.')).toEqual([
      ['duration', '3 days', '3 days'],
      ['duration', '2 weeks', '2 weeks'],
      ['duration', '1 month', '1 month'],
      ['duration', '10 days', '10-day'],
    ]);
    expect(values('Fever for 2-3 days.').map((v) => v[1])).toEqual(['2 days', '3 days']);
    expect(values('Pain for a week, started a month ago.').map((v) => v[1])).toEqual(['1 week', '1 month']);
  });

  it('finds frequencies: abbreviations, words and counts', () => {
    const shown = (text: string) => values(text).map((v) => v[1]);
    expect(shown('QD. BID. TID. QID. q.d. b.i.d. t.i.d. q.i.d.')).toEqual([
      'QD',
      'BID',
      'TID',
      'QID',
      'QD',
      'BID',
      'TID',
      'QID',
    ]);
    expect(
      shown('three times a day; twice a day; once a day; daily; 3x/day; 2 times daily; four times per day'),
    ).toEqual(['TID', 'BID', 'QD', 'QD', 'TID', 'BID', 'QID']);
    expect(shown('q6h; q 8 h; every 6 hours; every other day; once a week; weekly')).toEqual([
      'every 6 hours',
      'every 8 hours',
      'every 6 hours',
      'every other day',
      'once a week',
      'once a week',
    ]);
    expect(shown('in the morning and at night')).toEqual(['BID']);
  });

  it('finds vital signs by their unit or by the name before them', () => {
    expect(values('BP 150/90 mmHg, HR 72 bpm, T 38.2 °C, SpO2 96%.')).toEqual([
      ['blood-pressure', '150/90', '150/90 mmHg'],
      ['heart-rate', '72 bpm', '72 bpm'],
      ['temperature', '38.2 °C', '38.2 °C'],
      ['percent', '96%', '96%'],
    ]);
    expect(
      values('Blood pressure 120/80. Heart rate 72. Temperature 101.3F. Pulse 64. Temp 99.1 degrees.'),
    ).toEqual([
      ['blood-pressure', '120/80', '120/80'],
      ['heart-rate', '72 bpm', '72'],
      ['temperature', '101.3 °F', '101.3F'],
      ['heart-rate', '64 bpm', '64'],
      ['temperature', '99.1 degrees', '99.1 degrees'],
    ]);
    expect(values('Temp 38.2, O2 sat 95 on room air.')).toEqual([
      ['temperature', '38.2', '38.2'],
      ['percent', '95%', '95'],
    ]);
  });

  it('reads values as they are said, in the lines', () => {
    const said = readLines([
      'your blood pressure is one fifty over ninety and your heart rate is seventy two',
      'take five hundred milligrams three times a day for ten days',
      'your temperature is thirty eight point two and your oxygen saturation is ninety six percent',
      "I've had it for a week",
    ]);
    expect(said.found.values.map((v) => [v.kind, v.shown])).toEqual([
      ['blood-pressure', '150/90'],
      ['heart-rate', '72 bpm'],
      ['dose', '500 mg'],
      ['frequency', 'TID'],
      ['duration', '10 days'],
      ['temperature', '38.2'],
      ['percent', '96%'],
      ['duration', '1 week'],
    ]);
  });

  it('reads no clinical value in a date, a time, an age, list numbering, an ID, a score or an angle', () => {
    expect(
      values(
        'Seen 3/5/2024 and 2024-03-05 at 0:52 and 10:30. 62-year-old man, a 3-month-old, age 45. ' +
          'Encounter ENC-2024-0042, MRN 123456. 1. Cough 2. Fever. Pain 7/10. Flexion to 90 degrees. ' +
          'Glucose 110 mg/dL. Infusion 5 mL/hr. Smokes 10 cigarettes a day. Lives at 221 Baker Street. ' +
          'Room 12, bed 3. Activities of daily living intact.',
      ),
    ).toEqual([]);
  });
});
