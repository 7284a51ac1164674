/** A plain radix-2 FFT (in place, Float64), and the cross-correlation built on it. */

export function nextPow2(n: number): number {
  let size = 1;
  while (size < n) size *= 2;
  return size;
}

/** In-place FFT of (re, im), length a power of two; `inverse` includes the 1/N scaling. */
export function fft(re: Float64Array, im: Float64Array, inverse = false): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let size = 2; size <= n; size *= 2) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / size;
    const stepRe = Math.cos(angle);
    const stepIm = Math.sin(angle);
    const half = size / 2;
    for (let start = 0; start < n; start += size) {
      let wRe = 1;
      let wIm = 0;
      for (let k = 0; k < half; k++) {
        const a = start + k;
        const b = a + half;
        const tRe = re[b]! * wRe - im[b]! * wIm;
        const tIm = re[b]! * wIm + im[b]! * wRe;
        re[b] = re[a]! - tRe;
        im[b] = im[a]! - tIm;
        re[a] = re[a]! + tRe;
        im[a] = im[a]! + tIm;
        const nextRe = wRe * stepRe - wIm * stepIm;
        wIm = wRe * stepIm + wIm * stepRe;
        wRe = nextRe;
      }
    }
  }
  if (inverse) {
    for (let k = 0; k < n; k++) {
      re[k] = re[k]! / n;
      im[k] = im[k]! / n;
    }
  }
}

/** The spectrum of `signal` zero-padded to `size`. */
export function spectrum(signal: Float32Array, size: number): { re: Float64Array; im: Float64Array } {
  const re = new Float64Array(size);
  re.set(signal.subarray(0, size));
  const im = new Float64Array(size);
  fft(re, im);
  return { re, im };
}

/** Frequency in cycles per sample of bin k of an N-point FFT (negative above N/2). */
export function binFrequency(k: number, size: number): number {
  return (k <= size / 2 ? k : k - size) / size;
}

/** The integer lag that maximizes the cross-correlation, over lags that overlap by half or more. */
export function integerLag(reference: Float32Array, capture: Float32Array): number {
  const size = nextPow2(reference.length + capture.length);
  const r = spectrum(reference, size);
  const c = spectrum(capture, size);
  // corr[k] = Σ capture[n + k] · reference[n]: the capture's spectrum times the reference's conjugate.
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    re[k] = c.re[k]! * r.re[k]! + c.im[k]! * r.im[k]!;
    im[k] = c.im[k]! * r.re[k]! - c.re[k]! * r.im[k]!;
  }
  fft(re, im, true);
  const minOverlap = Math.min(reference.length, capture.length) / 2;
  let best = { lag: 0, value: Number.NEGATIVE_INFINITY };
  for (let k = 0; k < size; k++) {
    const lag = k <= size / 2 ? k : k - size;
    const common = Math.min(reference.length, capture.length - lag) - Math.max(0, -lag);
    if (common >= minOverlap && re[k]! > best.value) best = { lag, value: re[k]! };
  }
  return best.lag;
}
