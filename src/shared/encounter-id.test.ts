import { describe, expect, it } from 'vitest';
import { encounterIdSchema } from './service';
import { readEncounterId, sentAsHint } from './encounter-id';

describe('an encounter ID as the EHR prints it (issue 31)', () => {
  it('sends the letters and digits of what was pasted, in order, and says so', () => {
    expect(readEncounterId('ENC-2024-00871')).toEqual({ kind: 'id', sent: 'ENC202400871', changed: true });
    expect(readEncounterId('bed 12 / A')).toEqual({ kind: 'id', sent: 'bed12A', changed: true });
    expect(readEncounterId('MRN#4711.03')).toEqual({ kind: 'id', sent: 'MRN471103', changed: true });
    expect(sentAsHint('ENC202400871')).toBe(
      'Sent as ENC202400871: the service takes letters and digits only',
    );
  });

  it('an ID of letters and digits is sent as typed; spaces pasted around it are no change to mention', () => {
    expect(readEncounterId('visit20261122090507')).toEqual({
      kind: 'id',
      sent: 'visit20261122090507',
      changed: false,
    });
    expect(readEncounterId('  ENC202400871\t')).toEqual({ kind: 'id', sent: 'ENC202400871', changed: false });
    // Case is the EHR's: kept.
    expect(readEncounterId('enc-ABC')).toEqual({ kind: 'id', sent: 'encABC', changed: true });
  });

  it('full-width letters and digits are the same letters and digits; other scripts are left out', () => {
    expect(readEncounterId('ＥＮＣ－１２')).toEqual({ kind: 'id', sent: 'ENC12', changed: true });
    expect(readEncounterId('Bär-7')).toEqual({ kind: 'id', sent: 'Br7', changed: true });
  });

  it('what is sent always passes the service’s rule', () => {
    for (const typed of ['ENC-2024-00871', ' a ', 'x'.repeat(255), '１-２-３', 'Ünïcödé 9']) {
      const reading = readEncounterId(typed);
      expect(reading.kind === 'id' && encounterIdSchema.safeParse(reading.sent).success, typed).toBe(true);
    }
  });

  it('nothing left after the rest is removed: a clear error naming the field and the rule', () => {
    expect(readEncounterId('--/--')).toEqual({
      kind: 'problem',
      problem:
        'Encounter ID must have at least one letter or digit (A–Z, a–z, 0–9): the service takes only those.',
    });
    expect(readEncounterId('   ')).toEqual({
      kind: 'problem',
      problem: 'Encounter ID is needed: type or paste it as in your EHR.',
    });
  });

  it('more than the service’s 255 letters and digits is refused, counting only those', () => {
    expect(readEncounterId(`${'a'.repeat(255)}-`)).toMatchObject({ kind: 'id', changed: true });
    expect(readEncounterId('a-'.repeat(256))).toEqual({
      kind: 'problem',
      problem: 'Encounter ID must be at most 255 letters and digits; this one has 256.',
    });
  });
});
