import { describe, expect, it } from 'vitest';
import { NOTHING_FOUND_CONTENT, offsetFromMs, type TranscriptEntry } from '../../shared/service';
import {
  checkNote,
  checkSection,
  countLabel,
  flagName,
  linesToCheck,
  totalToCheck,
  type CheckFlag,
} from './index';

const said = (...lines: string[]) => lines.map((transcript) => ({ transcript }));
const check = (text: string, ...lines: string[]) => checkSection(text, said(...lines));
/** Each flag with the text it marks, so a test sees offsets and `written` agree. */
const marked = (text: string, flags: CheckFlag[]) =>
  flags.map((f) => ({ ...f, at: text.slice(f.start, f.end) }));

describe('a value written as it was said is not flagged', () => {
  it.each([
    ['Aspirin 500 mg.', 'I take aspirin five hundred milligrams'],
    ['Temperature 102 °F.', 'your temperature was one hundred and two'],
    ['BP 150/90 mmHg.', 'your blood pressure is one fifty over ninety'],
    ['Blood pressure 120/80.', 'your blood pressure is one hundred twenty over eighty'],
    ['Temp 38.2 °C.', 'your temperature is thirty eight point two'],
    ['Amoxicillin TID.', 'take the amoxicillin three times a day'],
    ['Metformin BID.', 'metformin twice a day'],
    ['Lisinopril QD.', 'lisinopril once a day'],
    ['Lisinopril daily.', 'I take lisinopril every day'],
    ['HR 72.', 'your heart rate is seventy two'],
    ['Heart rate 72 bpm.', 'pulse is seventy two beats per minute'],
    ['SpO2 96% on room air.', 'your oxygen saturation is ninety six percent'],
    ['Cough for 10 days.', 'I have had this cough for ten days'],
    ['Cough x 1 week.', 'the cough has been going on for a week'],
    ['Lorazepam 0.5 mg.', 'lorazepam half a milligram'],
    ['Lisinopril 10 mg QHS.', 'lisinopril ten milligrams at night'],
    ['Metformin 500 mg BID.', 'metformin five hundred milligrams in the morning and at night'],
  ])('"%s" against "%s"', (note, line) => {
    expect(check(note, line)).toEqual([]);
  });

  it('counts a different but equal unit as the same value', () => {
    expect(check('Metformin 500 mg BID.', 'metformin five hundred milligrams twice a day')).toEqual([]);
    expect(check('Metformin 500 milligrams.', 'metformin 500 mg')).toEqual([]);
    expect(check('Ceftriaxone 0.5 g.', 'ceftriaxone five hundred milligrams')).toEqual([]);
    expect(check('Vitamin D 1,000 units.', 'vitamin d one thousand units')).toEqual([]);
    expect(check('Prednisone for 2 weeks.', 'prednisone for fourteen days')).toEqual([]);
    expect(
      check('Temp 38.2 °C.', 'you have a temperature of one hundred point eight degrees fahrenheit'),
    ).toEqual([]);
    expect(check('Insulin 10 IU.', 'ten units of insulin')).toEqual([]);
  });

  it('reads sides and negations as said', () => {
    expect(check('Left knee pain.', 'I have pain in my left knee')).toEqual([]);
    expect(check('Bilateral knee pain.', 'both of my knees hurt')).toEqual([]);
    expect(check('Pain in both ankles.', 'my left ankle and my right ankle are sore')).toEqual([]);
    expect(check('No chest pain.', "I don't have any chest pain")).toEqual([]);
    expect(check('Denies fever, chills, or night sweats.', 'any fever chills or night sweats', 'no')).toEqual(
      [],
    );
    expect(check('Without nausea.', 'no nausea at all')).toEqual([]);
  });

  it('flags nothing that is not a clinical value: a date, a time, an age, list numbering, an ID', () => {
    const header =
      '62-year-old man seen 3/5/2024 at 0:52, encounter ENC-2024-0042.\n1. Cough.\n2. Follow up in clinic.';
    expect(check(header, 'hello how are you')).toEqual([]);
  });
});

describe('a value the lines do not support is flagged where it is written', () => {
  it('says what was said when the lines name a value of the same kind', () => {
    const text = 'Aspirin 1000 mg daily.';
    const flags = check(text, 'I take aspirin five hundred milligrams every day');
    expect(marked(text, flags)).toEqual([
      { start: 8, end: 15, written: '1000 mg', at: '1000 mg', kind: 'dose', said: '500 mg' },
    ]);
    expect(flags.map(flagName)).toEqual(['Check: 1000 mg: said 500 mg']);
  });

  it('says "not in what was said" when no line names a value of the kind', () => {
    const text = 'Aspirin 81 mg daily.';
    const flags = check(text, 'I take aspirin every day');
    expect(marked(text, flags)).toEqual([{ start: 8, end: 13, written: '81 mg', at: '81 mg', kind: 'dose' }]);
    expect(flags.map(flagName)).toEqual(['Check: 81 mg: not in what was said']);
  });

  it.each([
    [
      'a number changed',
      'Metformin 1,000 mg.',
      'metformin five hundred milligrams',
      '1,000 mg',
      '500 mg',
      'dose',
    ],
    ['a unit changed', 'Levothyroxine 50 mg.', 'levothyroxine fifty micrograms', '50 mg', '50 mcg', 'dose'],
    [
      'a blood pressure',
      'BP 160/90.',
      'your blood pressure is one fifty over ninety',
      '160/90',
      '150/90',
      'blood-pressure',
    ],
    [
      'a temperature scale',
      'T 38.2 °F.',
      'thirty eight point two degrees celsius',
      '38.2 °F',
      '38.2 °C',
      'temperature',
    ],
    [
      'a temperature',
      'Temp 38.9.',
      'your temperature is thirty eight point two',
      '38.9',
      '38.2',
      'temperature',
    ],
    ['a heart rate', 'HR 92.', 'your heart rate is seventy two', '92', '72 bpm', 'heart-rate'],
    ['a saturation', 'SpO2 92%.', 'oxygen saturation ninety six percent', '92%', '96%', 'percent'],
    ['a frequency', 'Amoxicillin BID.', 'amoxicillin three times a day', 'BID', 'TID', 'frequency'],
    ['a duration', 'Amoxicillin for 10 days.', 'amoxicillin for two weeks', '10 days', '2 weeks', 'duration'],
    ['a side', 'Right knee pain.', 'the pain is in my left knee', 'Right', 'left', 'side'],
  ])('%s', (_what, text, line, written, saidValue, kind) => {
    const flags = check(text, line);
    expect(marked(text, flags)).toEqual([
      expect.objectContaining({ written, at: written, said: saidValue, kind }),
    ]);
    expect(flagName(flags[0]!)).toBe(`Check: ${written}: said ${saidValue}`);
  });

  it('flags a side said of nothing, or not at all', () => {
    expect(check('Left knee pain.', 'my knee hurts').map(flagName)).toEqual([
      'Check: Left: not in what was said',
    ]);
    expect(check('Bilateral knee pain.', 'my left knee hurts').map(flagName)).toEqual([
      'Check: Bilateral: said left',
    ]);
  });

  it('looks a value up where what it is about was said: another drug’s frequency does not support it', () => {
    const lines = [
      'I take lorazepam one milligram three times a day',
      'and metformin five hundred milligrams twice a day',
    ];
    const text = 'Lorazepam 1 mg TID. Metformin 500 mg TID.';
    expect(marked(text, check(text, ...lines))).toEqual([
      { start: 37, end: 40, written: 'TID', at: 'TID', kind: 'frequency', said: 'BID' },
    ]);
  });

  it('flags each wrong value once, in the order of the text', () => {
    const text = 'BP 150/90. HR 80. Ibuprofen 400 mg TID for 5 days.';
    const flags = check(
      text,
      'blood pressure one fifty over ninety',
      'heart rate seventy two',
      'ibuprofen six hundred milligrams three times a day for five days',
    );
    expect(flags.map(flagName)).toEqual(['Check: 80: said 72 bpm', 'Check: 400 mg: said 600 mg']);
    expect(flags.map((f) => f.start)).toEqual([14, 28]);
  });
});

describe('negations', () => {
  it('flags a negation dropped: the note states what the line denies', () => {
    const text = 'Chest pain since yesterday.';
    const flags = check(text, 'I have no chest pain');
    expect(marked(text, flags)).toEqual([
      { start: 0, end: 10, written: 'Chest pain', at: 'Chest pain', kind: 'negation', said: 'no chest pain' },
    ]);
    expect(flagName(flags[0]!)).toBe('Check: Chest pain: said no chest pain');
  });

  it('flags a negation added: the note denies what the line states', () => {
    const text = 'No chest pain.';
    const flags = check(text, 'I have chest pain when I climb stairs');
    expect(marked(text, flags)).toEqual([
      {
        start: 0,
        end: 13,
        written: 'No chest pain',
        at: 'No chest pain',
        kind: 'negation',
        said: 'chest pain',
      },
    ]);
    expect(flagName(flags[0]!)).toBe('Check: No chest pain: said chest pain');
  });

  it('flags a denial the lines never mention, and a finding only asked about', () => {
    expect(check('Denies fever.', 'I have a cough').map(flagName)).toEqual([
      'Check: Denies fever: not in what was said',
    ]);
    expect(check('Denies fever.', 'any fever').map(flagName)).toEqual([
      'Check: Denies fever: not in what was said',
    ]);
  });

  it('takes a yes/no answer as the question’s polarity', () => {
    expect(check('Denies chest pain.', 'Any chest pain?', 'No, none.')).toEqual([]);
    expect(check('Denies chest pain.', 'Any chest pain?', 'Yes, a little.').map(flagName)).toEqual([
      'Check: Denies chest pain: said chest pain',
    ]);
    expect(check('Reports chest pain.', 'any chest pain', 'no').map(flagName)).toEqual([
      'Check: chest pain: said no chest pain',
    ]);
  });

  it('flags one finding of a denied list on that finding', () => {
    const text = 'Denies fever, chills, or night sweats.';
    const flags = check(text, 'no fever', 'I have had chills', 'no night sweats');
    expect(marked(text, flags)).toEqual([
      { start: 14, end: 20, written: 'Denies chills', at: 'chills', kind: 'negation', said: 'chills' },
    ]);
  });

  it('does not take a comma after "no", or a new clause, for a negation', () => {
    expect(
      check('No, it stays in the middle of my chest.', 'No, it stays in the middle of my chest.'),
    ).toEqual([]);
    expect(check('No fever, has a cough.', 'no fever', 'I have a cough')).toEqual([]);
    expect(check('Has a cough.', 'no fever, has a cough')).toEqual([]);
  });
});

describe('the whole note', () => {
  const entry = (id: string, text: string, i: number): TranscriptEntry => ({
    transcript_id: id,
    transcript: text,
    speaker: 'clinician',
    start_offset: offsetFromMs(i * 4000),
    end_offset: offsetFromMs(i * 4000 + 3000),
  });
  const transcript = [
    entry('t1', 'I take aspirin eighty one milligrams every day', 0),
    entry('t2', 'your blood pressure is one fifty over ninety', 1),
    entry('t3', 'I have had a cough for two weeks', 2),
  ];

  it('checks a section against the lines it cites', () => {
    expect(linesToCheck(['t2'], transcript)).toEqual([transcript[1]]);
    const flags = checkNote([{ content: 'Aspirin 81 mg daily.', source_transcripts: ['t2'] }], transcript);
    expect(flags[0]!.map(flagName)).toEqual([
      'Check: 81 mg: not in what was said',
      'Check: daily: not in what was said',
    ]);
  });

  it('checks a section that cites no line, or a line that is not there, against the whole transcript', () => {
    expect(linesToCheck(undefined, transcript)).toBe(transcript);
    expect(linesToCheck([], transcript)).toBe(transcript);
    expect(linesToCheck(['t2', 't9'], transcript)).toBe(transcript);
    const note = [
      { content: 'Aspirin 81 mg daily. BP 150/90. Cough for 2 weeks.' },
      { content: 'Aspirin 81 mg daily.', source_transcripts: ['t9'] },
      { content: 'Cough for 3 weeks.', source_transcripts: [] },
    ];
    const flags = checkNote(note, transcript);
    expect(flags.map((f) => f.map(flagName))).toEqual([[], [], ['Check: 3 weeks: said 2 weeks']]);
    expect(totalToCheck(flags)).toBe(1);
  });

  it('has nothing to check in a section the service found nothing for', () => {
    expect(checkNote([{ content: NOTHING_FOUND_CONTENT }, { content: ' ' }], transcript)).toEqual([[], []]);
  });
});

describe('names and counts', () => {
  it('names a flag exactly', () => {
    expect(flagName({ written: '1000 mg', said: '500 mg' })).toBe('Check: 1000 mg: said 500 mg');
    expect(flagName({ written: 'left' })).toBe('Check: left: not in what was said');
  });

  it('counts what is left to check', () => {
    expect(countLabel(1)).toBe('1 to check');
    expect(countLabel(2)).toBe('2 to check');
  });
});
