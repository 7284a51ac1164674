import type { CheckFlag } from './check';

/**
 * Each flag's name for "Checked" (issue 38): its kind and its value as written, and which of the
 * section's flags of that name it is (`dose|1000 mg|0`). Offsets are not part of it: an edit
 * elsewhere in the section moves them, and a value marked Checked must stay checked. A value
 * edited to something else is another flag, and is not.
 */
export function checkKeys(flags: readonly Pick<CheckFlag, 'kind' | 'written'>[]): string[] {
  const seen = new Map<string, number>();
  return flags.map((flag) => {
    const name = `${flag.kind}|${flag.written}`;
    const nth = seen.get(name) ?? 0;
    seen.set(name, nth + 1);
    return `${name}|${nth}`;
  });
}
