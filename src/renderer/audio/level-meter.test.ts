import { describe, expect, it } from 'vitest';
import { NoSignalDetector, SILENCE_DBFS, measureFloatLevel, measureLevel } from './level-meter';

describe('measureLevel', () => {
  it('reads a full-scale square wave as 0 dBFS RMS and peak', () => {
    const square = Int16Array.from({ length: 1_600 }, (_, k) => (k % 2 ? 32_767 : -32_768));
    const level = measureLevel(square);
    expect(level.peakDbfs).toBeCloseTo(0, 3);
    expect(level.rmsDbfs).toBeCloseTo(0, 3);
  });

  it('reads a sine at half scale as −6 dBFS peak and −9 dBFS RMS', () => {
    const sine = Int16Array.from({ length: 1_600 }, (_, k) =>
      Math.round(16_384 * Math.sin((2 * Math.PI * k) / 32)),
    );
    const level = measureLevel(sine);
    expect(level.peakDbfs).toBeCloseTo(-6.02, 1);
    expect(level.rmsDbfs).toBeCloseTo(-9.03, 1);
  });

  it('reads float samples (the microphone check) on the same scale as Int16', () => {
    const sine = (k: number) => 0.5 * Math.sin((2 * Math.PI * k) / 32);
    const asFloat = measureFloatLevel(Float32Array.from({ length: 1_600 }, (_, k) => sine(k)));
    const asInt = measureLevel(Int16Array.from({ length: 1_600 }, (_, k) => Math.round(32_768 * sine(k))));
    expect(asFloat.peakDbfs).toBeCloseTo(asInt.peakDbfs, 2);
    expect(asFloat.rmsDbfs).toBeCloseTo(asInt.rmsDbfs, 2);
  });

  it('puts digital silence at the floor instead of −∞', () => {
    expect(measureLevel(new Int16Array(1_600))).toEqual({ rmsDbfs: SILENCE_DBFS, peakDbfs: SILENCE_DBFS });
  });
});

describe('NoSignalDetector', () => {
  const silence = measureLevel(new Int16Array(1_600));
  const dither = measureLevel(Int16Array.from({ length: 1_600 }, (_, k) => (k % 3) - 1));
  const quietRoom = measureLevel(Int16Array.from({ length: 1_600 }, (_, k) => ((k * 7919) % 21) - 10));

  it('warns after 3 s of digital silence and clears on the first real sound', () => {
    const detector = new NoSignalDetector(3_000);
    const verdicts = Array.from({ length: 30 }, () => detector.update(silence, 100));
    expect(verdicts.indexOf(true)).toBe(29);
    expect(detector.update(quietRoom, 100)).toBe(false);
  });

  it('counts ±1 LSB dither as silence but not a quiet room', () => {
    const detector = new NoSignalDetector(300);
    for (let k = 0; k < 3; k++) detector.update(dither, 100);
    expect(detector.update(dither, 100)).toBe(true);
    const room = new NoSignalDetector(300);
    for (let k = 0; k < 10; k++) expect(room.update(quietRoom, 100)).toBe(false);
  });
});
