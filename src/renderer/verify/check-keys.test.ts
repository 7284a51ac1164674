import { describe, expect, it } from 'vitest';
import { checkSection } from './check';
import { checkKeys } from './check-keys';

const said = [
  { transcript: 'Take metformin five hundred milligrams twice a day, and the knee on the left.' },
];

describe('the names of flags marked Checked', () => {
  it('stay the same when the section is edited elsewhere, and differ for the same value twice', () => {
    const before = checkSection('Metformin 1000 mg BID. Right knee.', said);
    const after = checkSection('Patient seen today. Metformin 1000 mg BID. Right knee.', said);
    expect(before.map((f) => f.start)).not.toEqual(after.map((f) => f.start));
    expect(checkKeys(after)).toEqual(checkKeys(before));
    expect(
      checkKeys([
        { kind: 'dose', written: '1000 mg' },
        { kind: 'dose', written: '1000 mg' },
        { kind: 'side', written: 'right' },
      ]),
    ).toEqual(['dose|1000 mg|0', 'dose|1000 mg|1', 'side|right|0']);
  });

  it('a value edited to another wrong one is a new flag, not the one checked', () => {
    const [first] = checkKeys(checkSection('Metformin 1000 mg BID.', said));
    const [second] = checkKeys(checkSection('Metformin 750 mg BID.', said));
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });
});
