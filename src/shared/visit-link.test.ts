import { describe, expect, it } from 'vitest';
import { readVisitLink } from './visit-link';

const TODAY = '2026-11-24';
const read = (link: string) => readVisitLink(link, TODAY);

describe('a visit link from the EHR', () => {
  it('fills the visit from every field it carries', () => {
    expect(
      read(
        'ambient-scribe://visit?encounter_id=bed12visit3&date_of_birth=1961-04-09&sex=FEMALE&specialty=CARDIOLOGY&template=soap&provider_id=dr%20jones',
      ),
    ).toEqual({
      ok: true,
      link: {
        encounterId: 'bed12visit3',
        dateOfBirth: '1961-04-09',
        sex: 'FEMALE',
        specialty: 'CARDIOLOGY',
        template: 'soap',
        providerId: 'dr jones',
      },
    });
    expect(read('ambient-scribe://visit?encounter_id=A1')).toEqual({ ok: true, link: { encounterId: 'A1' } });
    expect(read('ambient-scribe://visit/?encounter_id=A1').ok).toBe(true);
  });

  it('names every problem and fills nothing', () => {
    const reading = read(
      'ambient-scribe://visit?encounter_id=%20-%20&date_of_birth=09/04/1961&sex=F&template=soup&colour=red&sex=MALE',
    );
    expect(reading).toEqual({
      ok: false,
      problems: [
        { field: 'colour', rule: expect.stringMatching(/^is not a field of a visit link \(encounter_id, /) },
        { field: 'sex', rule: 'must be given once' },
        { field: 'encounter_id', rule: 'must have at least one letter or digit (A–Z, a–z, 0–9)' },
        { field: 'date_of_birth', rule: 'must be a real past date written YYYY-MM-DD' },
        { field: 'sex', rule: 'must be one of MALE, FEMALE, OTHER, UNKNOWN' },
        { field: 'template', rule: expect.stringMatching(/^must be one of standard, soap, /) },
      ],
    });
    expect(read('ambient-scribe://visit?sex=MALE')).toEqual({
      ok: false,
      problems: [{ field: 'encounter_id', rule: 'is needed' }],
    });
    expect(read('ambient-scribe://visit?encounter_id=A1&date_of_birth=2026-11-25').ok).toBe(false);
  });

  it('takes the encounter ID as the EHR prints it, and fills in its letters and digits, as a typed one', () => {
    expect(read('ambient-scribe://visit?encounter_id=ENC-2024-00871')).toEqual({
      ok: true,
      link: { encounterId: 'ENC202400871' },
    });
    expect(read('ambient-scribe://visit?encounter_id=bed%2012%20%2F%20A')).toEqual({
      ok: true,
      link: { encounterId: 'bed12A' },
    });
    expect(read(`ambient-scribe://visit?encounter_id=${'A1-'.repeat(130)}`)).toEqual({
      ok: false,
      problems: [{ field: 'encounter_id', rule: 'must be at most 255 letters and digits' }],
    });
  });

  it('has no field for the visit audio: a link never turns the call’s sound on or off (issue 30)', () => {
    for (const field of ['visit_audio', 'visitAudio', 'telehealth'])
      expect(read(`ambient-scribe://visit?encounter_id=A1&${field}=telehealth`)).toEqual({
        ok: false,
        problems: [
          { field, rule: expect.stringMatching(/^is not a field of a visit link \(encounter_id, /) },
        ],
      });
  });

  it('refuses what is not a visit link at all', () => {
    for (const link of [
      'https://visit?encounter_id=A1',
      'ambient-scribe://settings?x=1',
      'ambient-scribe://visit/delete?encounter_id=A1',
      'not a link',
    ])
      expect(read(link), link).toMatchObject({ ok: false, problems: [{ field: 'link' }] });
    expect(read(`ambient-scribe://visit?encounter_id=${'A'.repeat(3_000)}`)).toMatchObject({
      ok: false,
      problems: [{ field: 'link', rule: 'must be at most 2048 characters' }],
    });
  });
});
