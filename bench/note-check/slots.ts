/**
 * One value of the corpus (a "slot"): what it is, how the visit said it and how the note typed it,
 * and how an error changes it. A slot is made once with its forms fixed, so the clean note and its
 * copy with one error differ in that value only.
 */
import type { Random } from './random';
import {
  DOSE_UNITS,
  OFTEN,
  sayDoseUnit,
  sayDuration,
  sayOften,
  sayTemperature,
  spoken,
  typeDoseUnit,
  typeDuration,
  typed,
  typeOften,
  typeTemperature,
  type DoseUnit,
  type Often,
  type Scale,
  type Span,
} from './speech';

export type Category =
  | 'number changed'
  | 'unit changed'
  | 'frequency changed'
  | 'side swapped'
  | 'negation dropped'
  | 'negation added';

export interface Slot {
  kind: string;
  /** As the visit said it ("five hundred milligrams") and as the note typed it ("500 mg"). */
  said: string;
  typed: string;
  /** A value the issue names (a denied finding is one; a finding said as present is not). */
  counts: boolean;
  /** The errors this value can carry, and the slot with one of them. */
  errors: Category[];
  withError(category: Category, rng: Random): Slot;
}

const differentFrom = <T>(items: readonly T[], not: T, rng: Random): T =>
  rng.pick(items.filter((i) => i !== not));
const noError = (): never => {
  throw new Error('no such error for this value');
};

export function dose(n: number, unit: DoseUnit, usual: readonly number[], rng: Random): Slot {
  const said = `${spoken(n, rng)} ${sayDoseUnit(unit, n, rng)}`;
  const glued = unit !== 'units' && rng.chance(0.12);
  const typedForm = `${typed(n, rng)}${glued ? '' : ' '}${typeDoseUnit(unit, rng)}`;
  return {
    kind: 'dose',
    said,
    typed: typedForm,
    counts: true,
    errors: ['number changed', 'unit changed'],
    withError: (category, r) => {
      if (category === 'unit changed') return dose(n, differentFrom(DOSE_UNITS, unit, r), usual, r);
      if (category !== 'number changed') return noError();
      const others = usual.filter((u) => u !== n);
      const wrong =
        others.length > 0 && r.chance(0.6)
          ? r.pick(others)
          : r.pick([n * 2, n * 10, n / 2].filter((v) => v !== n));
      return dose(wrong, unit, usual, r);
    },
  };
}

export function frequency(often: Often, rng: Random): Slot {
  return {
    kind: 'frequency',
    said: sayOften(often, rng),
    typed: typeOften(often, rng),
    counts: true,
    errors: ['frequency changed'],
    withError: (category, r) =>
      category === 'frequency changed' ? frequency(differentFrom(OFTEN, often, r), r) : noError(),
  };
}

export function duration(n: number, span: Span, rng: Random): Slot {
  return {
    kind: 'duration',
    said: sayDuration(n, span, rng),
    typed: typeDuration(n, span, rng),
    counts: true,
    errors: ['number changed', 'unit changed'],
    withError: (category, r) => {
      if (category === 'unit changed')
        return duration(n, differentFrom<Span>(['day', 'week', 'month'], span, r), r);
      if (category !== 'number changed') return noError();
      return duration(differentFrom([1, 2, 3, 4, 5, 6, 7, 10, 14, 21, 30], n, r), span, r);
    },
  };
}

export function bloodPressure(s: number, d: number, rng: Random): Slot {
  return {
    kind: 'blood-pressure',
    said: `${spoken(s, rng)} over ${spoken(d, rng)}`,
    typed: rng.pick([`${s}/${d}`, `${s}/${d} mmHg`, `${s}/${d} mm Hg`]),
    counts: true,
    errors: ['number changed'],
    withError: (_c, r) =>
      r.chance(0.5)
        ? bloodPressure(s + r.pick([-1, 1]) * r.int(2, 6) * 5, d, r)
        : bloodPressure(s, d + r.pick([-1, 1]) * r.int(1, 3) * 5, r),
  };
}

export function heartRate(n: number, rng: Random): Slot {
  return {
    kind: 'heart-rate',
    said: spoken(n, rng),
    typed: rng.pick([`${n}`, `${n} bpm`]),
    counts: true,
    errors: ['number changed'],
    withError: (_c, r) => heartRate(n + r.pick([-1, 1]) * r.int(4, 30), r),
  };
}

/** `named`: the scale is said ("degrees celsius"), as it must be when an error changes it. */
export function temperature(t: number, scale: Scale, rng: Random, named = false): Slot {
  return {
    kind: 'temperature',
    said: named
      ? `${spoken(t, rng)} degrees ${scale === 'F' ? 'fahrenheit' : 'celsius'}`
      : sayTemperature(t, scale, rng),
    typed: typeTemperature(t, scale, rng),
    counts: true,
    errors: ['number changed', 'unit changed'],
    withError: (category, r) => {
      if (category === 'unit changed') return temperature(t, scale === 'F' ? 'C' : 'F', r, true);
      const step = scale === 'F' ? r.int(4, 25) / 10 : r.int(2, 12) / 10;
      return temperature(Number((t + r.pick([-1, 1]) * step).toFixed(1)), scale, r);
    },
  };
}

export function oxygen(n: number, rng: Random): Slot {
  return {
    kind: 'percent',
    said: `${spoken(n, rng)} percent`,
    typed: rng.pick([`${n}%`, `${n} %`, `${n}% on room air`]),
    counts: true,
    errors: ['number changed'],
    withError: (_c, r) =>
      oxygen(n >= 98 ? n - r.int(2, 8) : n + r.pick([-1, 1]) * r.int(2, Math.min(8, 100 - n)), r),
  };
}

export type Side = 'left' | 'right' | 'bilateral';

/** A side with its body part: "my left knee", "both knees" / "left knee", "bilateral knee". */
export function side(which: Side, body: string, plural: string, owner: 'my' | 'your', rng: Random): Slot {
  const said =
    which === 'bilateral'
      ? rng.pick([`both ${plural}`, `both of ${owner} ${plural}`, `${owner} ${plural} on both sides`])
      : rng.pick([`${owner} ${which} ${body}`, `the ${which} ${body}`]);
  const typedForm =
    which === 'bilateral'
      ? rng.pick([`bilateral ${body}`, `both ${plural}`, `bilateral ${plural}`])
      : rng.chance(0.08)
        ? `${which === 'left' ? 'L' : 'R'} ${body}`
        : `${which} ${body}`;
  return {
    kind: 'side',
    said,
    typed: typedForm,
    counts: true,
    errors: ['side swapped'],
    withError: (_c, r) =>
      side(
        which === 'bilateral' ? r.pick(['left', 'right']) : which === 'left' ? 'right' : 'left',
        body,
        plural,
        owner,
        r,
      ),
  };
}

const DENY_TYPED = ['Denies', 'No', 'Negative for', 'Denies any'];
const AFFIRM_TYPED = ['Reports', 'Endorses', 'Positive for', 'Complains of'];

/**
 * A finding, denied or present. Its said form is the sentence's own ("I don't have any cough");
 * the fact places Q/A forms itself. `typed` carries its cue: "Denies cough", "Reports cough".
 */
export function finding(name: string, denied: boolean, rng: Random, style = rng.int(0, 3)): Slot {
  const said = denied
    ? [
        `I don't have any ${name}`,
        `No, I haven't had any ${name}`,
        `no ${name}`,
        `I have not had any ${name}`,
      ][style]!
    : [
        `I do have some ${name}`,
        `Yes, I have had some ${name}`,
        `I've been having ${name}`,
        `I have had ${name}`,
      ][style]!;
  return {
    kind: 'negation',
    said,
    typed: `${(denied ? DENY_TYPED : AFFIRM_TYPED)[style]} ${name}`,
    counts: denied,
    errors: [denied ? 'negation dropped' : 'negation added'],
    withError: (_c, r) => finding(name, !denied, r, style),
  };
}
