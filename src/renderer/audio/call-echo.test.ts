import { describe, expect, it } from 'vitest';
import headsetUrl from '../../../e2e/fixtures/telehealth-clinician.wav?inline';
import patientUrl from '../../../e2e/fixtures/telehealth-patient.wav?inline';
import speakersUrl from '../../../e2e/fixtures/telehealth-speakers.wav?inline';
import { CallEchoDetector } from './call-echo';
import { measureLevel } from './level-meter';

/** A repeatable stream of numbers in [0, 1) (a linear congruential generator). */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

/** A talker's chunk levels: syllables and pauses between -40 and -18 dBFS. */
function speechLevels(count: number, seed: number): number[] {
  const next = numbers(seed);
  return Array.from({ length: count }, () => -40 + 22 * next());
}

/** A fixture's 16-bit samples (the fixture scripts write a plain 44-byte header). */
function samplesOf(wav: ArrayBuffer): Int16Array {
  return new Int16Array(wav, 44, (wav.byteLength - 44) / 2);
}

/**
 * What a fake microphone delivers of `source`: `lateMs` of silence first, and `missed` reads of
 * 10 to 40 ms filled with zeros at places `next` picks (the content is delayed, not lost).
 */
function fakeMicrophone(source: Int16Array, lateMs: number, missed: number, next: () => number): Int16Array {
  const reads = Math.floor(source.length / 160);
  const missedAt = new Set(Array.from({ length: missed }, () => Math.floor(next() * reads)));
  const out: number[] = new Array<number>(lateMs * 16).fill(0);
  for (let read = 0; read < reads; read++) {
    if (missedAt.has(read)) out.push(...new Array<number>(160 * (1 + Math.floor(next() * 4))).fill(0));
    out.push(...source.subarray(read * 160, (read + 1) * 160));
  }
  return Int16Array.from(out);
}

/** Whether the detector, fed both sources' 100 ms chunk levels, said at any point that the microphone hears the call. */
function heardOver(microphone: Int16Array, call: Int16Array): boolean {
  const detector = new CallEchoDetector();
  let heard = false;
  for (let k = 0; (k + 1) * 1_600 <= Math.min(microphone.length, call.length); k++) {
    const chunk = (samples: Int16Array) => measureLevel(samples.subarray(k * 1_600, (k + 1) * 1_600)).rmsDbfs;
    heard = detector.update(chunk(microphone), chunk(call)) || heard;
  }
  return heard;
}

/** Feeds pairs of (microphone, call) levels; returns what the detector said after each. */
function feed(detector: CallEchoDetector, mic: number[], call: (number | null)[]): boolean[] {
  return mic.map((level, k) => detector.update(level, call[k] ?? null));
}

describe('whether the microphone hears the call', () => {
  const call = speechLevels(200, 1);
  const room = numbers(2);

  it('speakers: the microphone’s level follows the call’s, 8 dB under it; said once 4 s of the call are heard', () => {
    const detector = new CallEchoDetector();
    const mic = call.map((level) => (level as number) - 8 + (room() - 0.5));
    const said = feed(detector, mic, call);
    expect(said.slice(0, 39).some(Boolean)).toBe(false);
    expect(said.slice(39).every(Boolean)).toBe(true);
  });

  it('speakers whose echo comes a chunk or two after the call’s own copy, or ahead of it (the captures’ own latencies)', () => {
    for (const lag of [1, 2, -1, -2]) {
      const detector = new CallEchoDetector();
      const mic = call.map((_, k) => {
        const source = call[k - lag];
        return source === undefined || source === null ? -58 : source - 8;
      });
      expect(feed(detector, mic, call).at(-1), `${lag} chunk(s) later`).toBe(true);
    }
  });

  it('speakers whose echo comes half a chunk after the call’s copy: each microphone chunk holds the ends of two', () => {
    for (const lag of [0.5, 1.5, -0.5]) {
      const detector = new CallEchoDetector();
      const mic = call.map((_, k) => {
        const [a, b] = [call[k - Math.floor(lag)], call[k - Math.ceil(lag)]];
        return a === undefined || b === undefined ? -58 : (a + b) / 2 - 8 + (room() - 0.5);
      });
      expect(feed(detector, mic, call).at(-1), `${lag} chunk(s) later`).toBe(true);
    }
  });

  it('the telehealth fixture on speakers, the microphone late by part of a chunk and missing reads: heard', async () => {
    const [speakers, patient, headset] = await Promise.all(
      [speakersUrl, patientUrl, headsetUrl].map(async (url) =>
        samplesOf(await (await fetch(url)).arrayBuffer()),
      ),
    );
    const next = numbers(7);
    for (const lateMs of [0, 50, 100]) {
      const heard = heardOver(fakeMicrophone(speakers!, lateMs, 12, next), patient!);
      expect(heard, `the microphone ${lateMs} ms late`).toBe(true);
      // A headset's microphone, the same way: never.
      expect(heardOver(fakeMicrophone(headset!, lateMs, 12, next), patient!)).toBe(false);
    }
  });

  it('the call speaking only now and then: silent chunks between turns are not judged', () => {
    const detector = new CallEchoDetector();
    // Turns of 1 s, then 1 s of the call silent, and the microphone hearing the room then.
    const turns = call.map((level, k) => (Math.floor(k / 10) % 2 === 0 ? level : -70));
    const mic = turns.map((level) => ((level as number) > -45 ? (level as number) - 8 : -58));
    expect(feed(detector, mic, turns).at(-1)).toBe(true);
  });

  it('a headset: the microphone hears the room while the patient speaks, and never says so', () => {
    const detector = new CallEchoDetector();
    const mic = call.map(() => -58 + 2 * room());
    expect(feed(detector, mic, call).some(Boolean)).toBe(false);
  });

  it('a headset with the clinician talking over the patient: the microphone follows its own voice, not the call', () => {
    const detector = new CallEchoDetector();
    expect(feed(detector, speechLevels(200, 7), call).some(Boolean)).toBe(false);
  });

  it('an echo too quiet to matter (40 dB under the call) is not said', () => {
    const detector = new CallEchoDetector();
    const mic = call.map((level) => Math.max(-60, (level as number) - 40 + (room() - 0.5)));
    expect(feed(detector, mic, call).some(Boolean)).toBe(false);
  });

  it('counts only chunks where the call speaks: silence and a call not mixed change nothing', () => {
    const detector = new CallEchoDetector();
    const quiet = Array.from({ length: 300 }, () => -70);
    expect(feed(detector, quiet, quiet).some(Boolean)).toBe(false);
    expect(
      feed(
        detector,
        quiet,
        Array.from({ length: 300 }, () => null),
      ).some(Boolean),
    ).toBe(false);
  });

  it('goes quiet again once the headset is on (a full window of the call later), and after the call ends', () => {
    const detector = new CallEchoDetector();
    const echoed = call.slice(0, 100).map((level) => (level as number) - 8);
    expect(feed(detector, echoed, call.slice(0, 100)).at(-1)).toBe(true);
    const headset = call.slice(100).map(() => -58 + 2 * room());
    const after = feed(detector, headset, call.slice(100));
    // Said until most of what the detector remembers is the headset's.
    expect(after.at(0)).toBe(true);
    expect(after.at(-1)).toBe(false);
    feed(detector, echoed, call.slice(0, 100));
    detector.reset();
    expect(detector.update(-30, -30)).toBe(false);
  });
});
