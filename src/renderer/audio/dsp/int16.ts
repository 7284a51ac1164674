/** True on little-endian hosts (every platform Electron ships on); Int16Array is then LE in memory. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Float32 samples in [−1, 1] → Int16, little-endian in `target`'s memory: scaled by 32,768,
 * rounded to nearest (ties toward +∞), clipped to [−32,768, 32,767] (no wrap-around; NaN → 0).
 * Converts `source[0 … length)` into `target[0 … length)`; allocates nothing.
 */
export function toInt16LE(source: Float32Array, target: Int16Array, length: number = source.length): void {
  if (length > target.length || length > source.length) {
    throw new RangeError(`toInt16LE: ${length} samples do not fit (${source.length} → ${target.length})`);
  }
  for (let k = 0; k < length; k++) {
    const v = Math.round(source[k]! * 32_768);
    target[k] = v > 32_767 ? 32_767 : v < -32_768 ? -32_768 : v;
  }
  if (!LITTLE_ENDIAN) {
    for (let k = 0; k < length; k++) {
      const v = target[k]!;
      target[k] = ((v & 0xff) << 8) | ((v >> 8) & 0xff);
    }
  }
}
