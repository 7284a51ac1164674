/**
 * Kaiser-windowed sinc low-pass design (Kaiser's formulas, as in Oppenheim & Schafer §7.6).
 * Design-time only: these functions allocate and are called from constructors, never per block.
 */

/** Zeroth-order modified Bessel function of the first kind, by its power series. */
export function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const half = x / 2;
  for (let k = 1; k < 64; k++) {
    term *= (half / k) * (half / k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

/** Kaiser's β for a stop-band attenuation of `attenuationDb`. */
export function kaiserBeta(attenuationDb: number): number {
  if (attenuationDb > 50) return 0.1102 * (attenuationDb - 8.7);
  if (attenuationDb >= 21) return 0.5842 * (attenuationDb - 21) ** 0.4 + 0.07886 * (attenuationDb - 21);
  return 0;
}

/**
 * Half-width, in samples at `sampleRate`, of a Kaiser-windowed sinc whose transition band is
 * `transitionHz` wide and whose stop band is `attenuationDb` down: (N − 1) / 2 with Kaiser's
 * N − 1 = (A − 8) / (2.285 Δω).
 */
export function kaiserHalfWidth(attenuationDb: number, transitionHz: number, sampleRate: number): number {
  const deltaOmega = (2 * Math.PI * transitionHz) / sampleRate;
  return (attenuationDb - 8) / (2.285 * deltaOmega) / 2;
}

/**
 * The continuous low-pass kernel h(t), t in input samples: a sinc with cutoff `cutoff` (cycles per
 * input sample, < 0.5) under a Kaiser window of half-width `halfWidth` samples. Its integral is 1.
 */
export function windowedSinc(
  t: number,
  cutoff: number,
  halfWidth: number,
  beta: number,
  i0Beta: number,
): number {
  if (Math.abs(t) >= halfWidth) return 0;
  const x = 2 * cutoff * t;
  const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
  const r = t / halfWidth;
  return 2 * cutoff * sinc * (besselI0(beta * Math.sqrt(1 - r * r)) / i0Beta);
}
