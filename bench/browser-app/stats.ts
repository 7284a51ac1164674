/** Summaries the browser benchmarks print. */
import { percentile } from '../report';

export const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const max = (values: number[]): number => Math.max(...values);

export { percentile };

/** `v` with `digits` decimals and thousands separators. */
export function num(v: number, digits = 0): string {
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
