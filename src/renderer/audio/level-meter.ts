/** What the level meter shows for one chunk, in dB relative to full scale. */
export interface AudioLevel {
  rmsDbfs: number;
  peakDbfs: number;
}

/** The floor the meter reports for digital silence (a 16-bit LSB is −90.3 dBFS). */
export const SILENCE_DBFS = -100;

const toDbfs = (amplitude: number) =>
  amplitude > 0 ? Math.max(SILENCE_DBFS, 20 * Math.log10(amplitude)) : SILENCE_DBFS;

/** RMS and peak of Int16 samples; once per 100 ms chunk, which is 10 updates a second. */
export function measureLevel(samples: Int16Array): AudioLevel {
  return measure(samples, 32_768);
}

/** The same for the Web Audio API's float samples (full scale ±1): the microphone check's meter. */
export function measureFloatLevel(samples: Float32Array): AudioLevel {
  return measure(samples, 1);
}

function measure(samples: ArrayLike<number>, fullScale: number): AudioLevel {
  let sumSquares = 0;
  let peak = 0;
  for (let k = 0; k < samples.length; k++) {
    const v = samples[k]!;
    sumSquares += v * v;
    const magnitude = v < 0 ? -v : v;
    if (magnitude > peak) peak = magnitude;
  }
  const rms = samples.length > 0 ? Math.sqrt(sumSquares / samples.length) : 0;
  return { rmsDbfs: toDbfs(rms / fullScale), peakDbfs: toDbfs(peak / fullScale) };
}

/**
 * Says when the microphone has delivered nothing but digital silence for `afterMs` — a muted or
 * dead input, not a quiet room (a real room never reads exactly 0). A live input has noise of at
 * least a few LSBs; peaks within ±1 LSB count as silence to allow for dither.
 */
export class NoSignalDetector {
  private silentMs = 0;

  constructor(private readonly afterMs = 3_000) {}

  /** Feeds one chunk's peak and duration; returns whether "no signal" holds now. */
  update(level: AudioLevel, chunkMs: number): boolean {
    this.silentMs = level.peakDbfs <= -90 ? this.silentMs + chunkMs : 0;
    return this.silentMs >= this.afterMs;
  }

  reset(): void {
    this.silentMs = 0;
  }
}
