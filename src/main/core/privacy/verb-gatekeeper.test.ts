import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/contract';
import { UserFacingError } from '../user-facing-error';
import { createSignOutGate } from './sign-out-gate';
import { createVerbGatekeeper } from './verb-gatekeeper';

const entry = (sessionId: string, providerId: string, formSessionId?: string): HistoryEntry => ({
  encounterId: `e-${sessionId}`,
  sessionId,
  ...(formSessionId ? { formSessionId } : {}),
  kind: 'ambient',
  state: 'interrupted',
  startedAt: 1_000,
  deliverTo: { service: 'https://scribe.example.org', partnerId: 'p1', providerId, model: 'bearer' },
});

describe('the owner gate', () => {
  it('decides by the visit’s own entry, never by another entry that names it as its form leg (an unsealed field)', async () => {
    // dr-b's entry, first in History, edited by hand to name dr-a's visit as its form leg.
    const entries = [entry('visit-b', 'dr-b', 'visit-a'), entry('visit-a', 'dr-a')];
    const gate = createVerbGatekeeper({
      gate: createSignOutGate(),
      history: { list: () => entries },
      requireMine: (visit) => {
        if (visit.deliverTo?.providerId !== 'dr-b') throw new UserFacingError('invalid_request', 'not yours');
      },
      pinMissing: async () => undefined,
    });
    const discard = { kind: 'owner', to: 'discard a visit' } as const;
    await expect(gate.admit(discard, { sessionId: 'visit-a' })).rejects.toThrow('not yours');
    await expect(gate.admit(discard, { sessionId: 'visit-b' })).resolves.toBeUndefined();
  });
});
