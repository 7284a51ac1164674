/** Numbers and tables as the report prints them. */

/** `v` to `digits` places with a typographic minus, and no "−0.00". */
export function fixed(v: number, digits: number): string {
  const text = Math.abs(v).toFixed(digits);
  return v < 0 && Number(text) !== 0 ? `−${text}` : text;
}
export const f1 = (v: number) => fixed(v, 1);
export const f2 = (v: number) => fixed(v, 2);
export const signed = (v: number, digits = 1) =>
  (fixed(v, digits).startsWith('−') ? '' : '+') + fixed(v, digits);
export const kHz = (hz: number) => `${hz / 1000} kHz`;
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
export const table = (header: string[], rows: (string | number)[][]) =>
  [row(header), row(header.map(() => '---')), ...rows.map(row)].join('\n');

export function label(variant: string): string {
  switch (variant) {
    case 'A':
      return 'A: 16 kHz context (Chromium resamples)';
    case 'B':
      return 'B: default context + our Resampler';
    case 'reference':
      return 'reference: default context, no worklet';
    case 'reference-16k':
      return 'reference: 16 kHz context, no worklet';
    default:
      return variant;
  }
}
