/**
 * The facts a generated visit is made of: a medication taken or started, vital signs, a complaint
 * with its side and duration, a finding on exam, findings denied or present. Each says itself in
 * transcript lines (what the clinician and the patient say, values in words) and in the note
 * (values typed as clinicians chart them), with its values as slots the injector can change.
 */
import type { Random } from './random';
import * as slot from './slots';
import type { Slot } from './slots';
import type { DoseUnit, Often, Span } from './speech';

export type SectionKey =
  'HISTORY_OF_PRESENT_ILLNESS' | 'MEDICATIONS' | 'PHYSICAL_EXAM' | 'REVIEW_OF_SYSTEMS' | 'PLAN';

/** Text, or a slot's value (by index) in its said or typed form. */
export interface Piece {
  text: string;
  slot?: number;
}
export interface SaidLine {
  speaker: 'clinician' | 'patient';
  pieces: Piece[];
}
export interface Fact {
  section: SectionKey;
  slots: Slot[];
  lines(slots: readonly Slot[]): SaidLine[];
  note(slots: readonly Slot[]): Piece[];
  /** Whether an error in a slot can be said in the lines too (for the sandbox's own notes). */
  saidErrors: boolean;
}

/** A template: text, or a slot index; `cap` makes the first letter upper case (a sentence's start). */
type Part = string | number | { cap: number };
function render(parts: readonly Part[], slots: readonly Slot[], form: 'said' | 'typed'): Piece[] {
  return parts.map((part) => {
    if (typeof part === 'string') return { text: part };
    const index = typeof part === 'number' ? part : part.cap;
    const text = slots[index]![form];
    return {
      text: typeof part === 'number' ? text : text.charAt(0).toUpperCase() + text.slice(1),
      slot: index,
    };
  });
}
const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

interface Drug {
  name: string;
  unit: DoseUnit;
  doses: number[];
  often: Often[];
  course?: boolean;
}
const DRUGS: Drug[] = [
  { name: 'lisinopril', unit: 'mg', doses: [5, 10, 20, 40], often: ['QD'] },
  { name: 'metformin', unit: 'mg', doses: [500, 850, 1000], often: ['QD', 'BID'] },
  { name: 'amoxicillin', unit: 'mg', doses: [250, 500, 875], often: ['BID', 'TID'], course: true },
  { name: 'atorvastatin', unit: 'mg', doses: [10, 20, 40, 80], often: ['QD'] },
  { name: 'aspirin', unit: 'mg', doses: [81, 325], often: ['QD'] },
  {
    name: 'ibuprofen',
    unit: 'mg',
    doses: [200, 400, 600, 800],
    often: ['TID', 'QID', 'Q6H', 'Q8H'],
    course: true,
  },
  { name: 'acetaminophen', unit: 'mg', doses: [325, 500, 650, 1000], often: ['Q6H', 'QID', 'TID'] },
  { name: 'levothyroxine', unit: 'mcg', doses: [25, 50, 75, 88, 100, 112, 125], often: ['QD'] },
  { name: 'vitamin D', unit: 'units', doses: [1000, 2000, 50000], often: ['QD', 'WEEKLY'] },
  { name: 'insulin glargine', unit: 'units', doses: [10, 12, 20, 24], often: ['QD'] },
  { name: 'amoxicillin suspension', unit: 'mL', doses: [5, 7.5, 10], often: ['BID', 'TID'], course: true },
  { name: 'prednisone', unit: 'mg', doses: [5, 10, 20, 40], often: ['QD'], course: true },
  { name: 'ceftriaxone', unit: 'g', doses: [1, 2], often: ['QD'], course: true },
  { name: 'omeprazole', unit: 'mg', doses: [20, 40], often: ['QD', 'BID'] },
  { name: 'gabapentin', unit: 'mg', doses: [100, 300, 600], often: ['TID', 'BID'] },
  { name: 'sertraline', unit: 'mg', doses: [25, 50, 100], often: ['QD'] },
  { name: 'vitamin B12', unit: 'mcg', doses: [500, 1000], often: ['QD'] },
  { name: 'hydrochlorothiazide', unit: 'mg', doses: [12.5, 25], often: ['QD'] },
  { name: 'metoprolol', unit: 'mg', doses: [25, 50, 100], often: ['BID', 'QD'] },
  { name: 'furosemide', unit: 'mg', doses: [20, 40], often: ['QD', 'BID'] },
  { name: 'azithromycin', unit: 'mg', doses: [250, 500], often: ['QD'], course: true },
  { name: 'cephalexin', unit: 'mg', doses: [250, 500], often: ['QID', 'BID'], course: true },
  { name: 'lorazepam', unit: 'mg', doses: [0.5, 1], often: ['BID', 'TID'] },
];

/** A medication the patient takes (MEDICATIONS) or the clinician starts (PLAN). */
export function medication(rng: Random, started: boolean): Fact {
  const drug = rng.pick(DRUGS);
  const n = rng.pick(drug.doses);
  const course = started && drug.course;
  const slots = [
    slot.dose(n, drug.unit, drug.doses, rng),
    slot.frequency(rng.pick(drug.often), rng),
    ...(course ? [slot.duration(rng.pick([5, 7, 10, 14]), 'day', rng)] : []),
  ];
  const forHow: Part[] = course ? [' for ', 2] : [];
  const said: Part[] = started
    ? rng.pick<Part[]>([
        ["I'm going to start you on ", drug.name, ' ', 0, ' ', 1, ...forHow, '.'],
        ["Let's do ", drug.name, ' ', 0, ', ', 1, ...forHow, '.'],
        ['I want you to take ', 0, ' of ', drug.name, ' ', 1, ...forHow, '.'],
      ])
    : rng.pick<Part[]>([
        ['I take ', drug.name, ' ', 0, ' ', 1, '.'],
        ["I'm on ", drug.name, ', ', 0, ' ', 1, '.'],
        ['For that I take ', 0, ' of ', drug.name, ' ', 1, '.'],
      ]);
  const written: Part[] = started
    ? rng.pick<Part[]>([
        ['Start ', drug.name, ' ', 0, ' ', 1, ...(course ? [' x ', 2] : []), '.'],
        [cap(drug.name), ' ', 0, ' PO ', 1, ...forHow, '.'],
      ])
    : rng.pick<Part[]>([
        [cap(drug.name), ' ', 0, ' ', 1, '.'],
        ['Takes ', drug.name, ' ', 0, ' ', 1, '.'],
        [cap(drug.name), ' ', 0, ' PO ', 1, '.'],
      ]);
  return {
    section: started ? 'PLAN' : 'MEDICATIONS',
    slots,
    lines: (s) => [{ speaker: started ? 'clinician' : 'patient', pieces: render(said, s, 'said') }],
    note: (s) => render(written, s, 'typed'),
    saidErrors: true,
  };
}

/** Two to four vital signs, each said on its own line and charted in one sentence. */
export function vitals(rng: Random): Fact {
  const kinds = rng.sample(['bp', 'hr', 'temp', 'spo2'] as const, rng.int(2, 4));
  const scale = rng.chance(0.6) ? 'F' : 'C';
  const slots = kinds.map((k): Slot => {
    if (k === 'bp') {
      const s = rng.int(96, 182);
      return slot.bloodPressure(s, rng.int(56, Math.min(112, s - 25)), rng);
    }
    if (k === 'hr') return slot.heartRate(rng.int(48, 128), rng);
    if (k === 'temp') {
      const t = scale === 'F' ? rng.int(970, 1035) / 10 : rng.int(360, 398) / 10;
      return slot.temperature(t, scale, rng);
    }
    return slot.oxygen(rng.int(88, 100), rng);
  });
  const SAID: Record<(typeof kinds)[number], Part[][]> = {
    bp: [['Your blood pressure is '], ['Blood pressure today is '], ['Your pressure is ']],
    hr: [['Your heart rate is '], ['Pulse is '], ['Your heart rate is ', -1, ' beats per minute']],
    temp: [['Your temperature is '], ['You have a temperature of '], ['Temperature is ']],
    spo2: [['Your oxygen saturation is '], ['Oxygen level is ']],
  };
  const TYPED: Record<(typeof kinds)[number], string[]> = {
    bp: ['BP ', 'Blood pressure ', 'BP: '],
    hr: ['HR ', 'Heart rate ', 'Pulse '],
    temp: ['Temp ', 'Temperature ', 'T '],
    spo2: ['SpO2 ', 'O2 sat ', 'Oxygen saturation '],
  };
  const said = kinds.map((k, i) => {
    const chosen = rng.pick(SAID[k]);
    return chosen.includes(-1) ? [chosen[0]!, i, ...chosen.slice(2), '.'] : [...chosen, i, '.'];
  });
  const labels = kinds.map((k) => rng.pick(TYPED[k]));
  const separator = rng.pick([', ', '. ']);
  return {
    section: 'PHYSICAL_EXAM',
    slots,
    lines: (s) => said.map((parts) => ({ speaker: 'clinician' as const, pieces: render(parts, s, 'said') })),
    note: (s) =>
      render([...kinds.flatMap((_k, i) => [...(i > 0 ? [separator] : []), labels[i]!, i]), '.'], s, 'typed'),
    saidErrors: true,
  };
}

const BODIES: [string, string][] = [
  ['knee', 'knees'],
  ['shoulder', 'shoulders'],
  ['hip', 'hips'],
  ['ankle', 'ankles'],
  ['wrist', 'wrists'],
  ['elbow', 'elbows'],
  ['ear', 'ears'],
  ['foot', 'feet'],
  ['hand', 'hands'],
  ['leg', 'legs'],
];
const chooseSide = (rng: Random): slot.Side =>
  rng.weighted<slot.Side>([
    ['left', 4],
    ['right', 4],
    ['bilateral', 1],
  ]);

/** A complaint with its side and how long: "I've had pain in my left knee for three days". */
export function complaint(rng: Random): Fact {
  const [body, plural] = rng.pick(BODIES);
  const symptom = rng.pick(['pain', 'swelling', 'numbness', 'stiffness']);
  const span = rng.weighted<Span>([
    ['day', 5],
    ['week', 4],
    ['month', 2],
  ]);
  const slots = [
    slot.side(chooseSide(rng), body, plural, 'my', rng),
    slot.duration(rng.int(1, 6), span, rng),
  ];
  const said = rng.pick<Part[]>([
    ["I've had ", symptom, ' in ', 0, ' for ', 1, '.'],
    ['The ', symptom, ' in ', 0, ' started ', 1, ' ago.'],
    ["It's been ", 1, ' now with the ', symptom, ' in ', 0, '.'],
  ]);
  const written = rng.pick<Part[]>([
    [{ cap: 0 }, ' ', symptom, ' for ', 1, '.'],
    [cap(symptom), ' in ', 0, ' x ', 1, '.'],
    ['Reports ', symptom, ' in ', 0, ' for the past ', 1, '.'],
  ]);
  return {
    section: 'HISTORY_OF_PRESENT_ILLNESS',
    slots,
    lines: (s) => [{ speaker: 'patient', pieces: render(said, s, 'said') }],
    note: (s) => render(written, s, 'typed'),
    saidErrors: true,
  };
}

/** A sign on exam on one side: "There is tenderness over your right shoulder". */
export function examSide(rng: Random): Fact {
  const [body, plural] = rng.pick(BODIES);
  const sign = rng.pick(['tenderness', 'swelling', 'bruising', 'redness', 'warmth', 'an effusion']);
  const slots = [slot.side(chooseSide(rng), body, plural, 'your', rng)];
  const said = rng.pick<Part[]>([
    ['I can feel some ', sign.replace(/^an /, ''), ' over ', 0, '.'],
    ['There is ', sign, ' of ', 0, '.'],
    ['I see ', sign, ' on ', 0, '.'],
  ]);
  const written = rng.pick<Part[]>([
    [cap(sign.replace(/^an /, '')), ' of ', 0, '.'],
    [{ cap: 0 }, ': ', sign.replace(/^an /, ''), ' on exam.'],
    ['Exam shows ', sign, ' over ', 0, '.'],
  ]);
  return {
    section: 'PHYSICAL_EXAM',
    slots,
    lines: (s) => [{ speaker: 'clinician', pieces: render(said, s, 'said') }],
    note: (s) => render(written, s, 'typed'),
    saidErrors: true,
  };
}

export const FINDINGS = (
  'fever,chills,night sweats,chest pain,shortness of breath,nausea,vomiting,diarrhea,constipation,headache,' +
  'dizziness,palpitations,cough,wheezing,rash,blood in the stool,abdominal pain,weight loss,numbness,tingling,' +
  'blurred vision,sore throat,leg swelling,burning with urination'
).split(',');

/**
 * Findings denied: one said ("I don't have any cough"), or asked and answered ("Any fever, chills or
 * night sweats?" "No."). The note denies them in one sentence; a finding an error turns present
 * leaves that sentence for its own ("Reports chills.").
 */
export function denied(rng: Random, names: string[]): Fact {
  const asked = names.length > 1 || rng.chance(0.4);
  const slots = names.map((name) => slot.finding(name, true, rng));
  const question = rng.pick(['Any ', 'Have you had any ', 'Any problems with ']);
  const answers = [
    ['No.', 'Nope.', 'No, none of that.'],
    ['Yes.', 'Yeah.', 'Yes, some.'],
  ];
  const answerStyle = rng.int(0, 2);
  const cue = rng.pick(['Denies ', 'No ', 'Negative for ']);
  return {
    section: rng.chance(0.7) ? 'REVIEW_OF_SYSTEMS' : 'HISTORY_OF_PRESENT_ILLNESS',
    slots,
    lines: (s) => {
      if (!asked) return [{ speaker: 'patient', pieces: render([0, '.'], s, 'said') }];
      const pieces: Piece[] = [{ text: question }];
      names.forEach((name, i) => {
        if (i > 0) pieces.push({ text: i === names.length - 1 ? ' or ' : ', ' });
        pieces.push({ text: name, slot: i });
      });
      pieces.push({ text: '?' });
      // One answer for all: an error in any of them is a "Yes".
      const no = s.every((x) => x.counts);
      return [
        { speaker: 'clinician', pieces },
        { speaker: 'patient', pieces: [{ text: answers[no ? 0 : 1]![answerStyle]!, slot: 0 }] },
      ];
    },
    note: (s) => {
      const still = names.filter((_n, i) => s[i]!.counts);
      const pieces: Piece[] = [];
      if (still.length > 0) {
        pieces.push({ text: cue });
        still.forEach((name, k) => {
          const i = names.indexOf(name);
          if (k > 0)
            pieces.push({ text: k === still.length - 1 ? (still.length > 2 ? ', or ' : ' or ') : ', ' });
          pieces.push({ text: name, slot: i });
        });
        pieces.push({ text: '.' });
      }
      s.forEach((x, i) => {
        if (!x.counts)
          pieces.push({ text: pieces.length > 0 ? ' ' : '' }, { text: x.typed, slot: i }, { text: '.' });
      });
      return pieces;
    },
    saidErrors: asked || names.length === 1,
  };
}

/** A finding present ("I've been having headaches"), which an error denies in the note. */
export function present(rng: Random, name: string): Fact {
  const slots = [slot.finding(name, false, rng)];
  return {
    section: 'HISTORY_OF_PRESENT_ILLNESS',
    slots,
    lines: (s) => [{ speaker: 'patient', pieces: render([0, '.'], s, 'said') }],
    note: (s) => render([0, '.'], s, 'typed'),
    saidErrors: true,
  };
}
