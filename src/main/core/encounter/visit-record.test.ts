import { describe, expect, it } from 'vitest';
import { attestedConsent, startedVisitRecord } from './visit-record';

const DELIVER_TO = { service: 'https://scribe.example', partnerId: 'p1', providerId: 'dr-a' };
const VISIT = { sessionId: 's1', audioKept: true, deliverTo: DELIVER_TO };

describe('a visit’s History entry at Start', () => {
  it('keeps the encounter ID as the EHR prints it beside what the service got, and marks a video visit', () => {
    const entry = startedVisitRecord(
      { kind: 'ambient', encounterId: 'ENC202400871', shownAs: 'ENC-2024-00871', video: true },
      VISIT,
      1_000,
    );
    expect(entry).toEqual({
      encounterId: 'ENC202400871',
      shownAs: 'ENC-2024-00871',
      video: true,
      sessionId: 's1',
      kind: 'ambient',
      state: 'recording',
      startedAt: 1_000,
      audioKept: true,
      deliverTo: DELIVER_TO,
    });
  });

  it('says nothing of either where there is nothing to say, and dates the consent by the recording provider', () => {
    const request = {
      kind: 'form' as const,
      encounterId: 'bed12',
      shownAs: 'bed12',
      formItems: [{ form_template_id: 'VITALS_ASSESSMENT' }],
      consent: { method: 'verbal' as const, wording: 'We record to write the note.' },
    };
    const consent = attestedConsent(request, DELIVER_TO, 2_000);
    const entry = startedVisitRecord(
      request,
      { ...VISIT, formSessionId: undefined, ...(consent ? { consent } : {}) },
      2_000,
    );
    expect(entry).not.toHaveProperty('shownAs');
    expect(entry).not.toHaveProperty('video');
    expect(entry).not.toHaveProperty('formSessionId');
    expect(attestedConsent({ kind: 'ambient', encounterId: 'e1' }, DELIVER_TO, 2_000)).toBeUndefined();
    expect(entry.consent).toEqual({
      method: 'verbal',
      wording: 'We record to write the note.',
      at: 2_000,
      providerId: 'dr-a',
    });
  });
});
