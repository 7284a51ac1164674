import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/contract';
import type { DeliveryTarget } from '../../../shared/delivery-target';
import { createClinicianVisits } from './clinician-visits';

const drX: DeliveryTarget = {
  service: 'https://scribe.example.org',
  partnerId: 'acme',
  providerId: 'dr-x',
  model: 'bearer',
};

const visit = (deliverTo?: DeliveryTarget): HistoryEntry => ({
  encounterId: 'enc-1',
  sessionId: 'sess-1',
  kind: 'ambient',
  state: 'done',
  startedAt: 1,
  ...(deliverTo ? { deliverTo } : {}),
});

/** The sentence a refusal says to the clinician, or 'opened'. */
const refusal = (owner: DeliveryTarget, entry: HistoryEntry) => {
  try {
    createClinicianVisits({ owner: () => owner }).requireMine(entry);
    return 'opened';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('whose visit it is, as the clinician is told (issue 39)', () => {
  it('opens a visit for its owner, all four the same', () => {
    expect(refusal(drX, visit(drX))).toBe('opened');
  });

  it('refuses another owner in one sentence that names who can open it', () => {
    expect(refusal({ ...drX, providerId: 'dr-y' }, visit(drX))).toBe(
      'Sign in as dr-x at scribe.example.org to open this visit.',
    );
    expect(refusal({ ...drX, service: 'builtin-sandbox' }, visit(drX))).toBe(
      'Sign in as dr-x at scribe.example.org to open this visit.',
    );
  });

  it('refuses a visit whose records name no owner, or no sign-in model, and says whom to ask', () => {
    const { model: _unknown, ...beforeIssue39 } = drX;
    for (const entry of [visit(), visit(beforeIssue39)]) {
      const sentence = refusal(drX, entry);
      expect(sentence).toBe(
        'This visit’s records do not say who recorded it, so nobody can open it here: ask your IT admin, as it stays sealed on this computer until the retention sweep removes it.',
      );
      expect(sentence.match(/\.(\s|$)/g)).toHaveLength(1);
    }
  });
});
