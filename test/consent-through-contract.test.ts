import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import type { AppCore } from '../src/main/core/app-core';
import type { HistoryEntry } from '../src/shared/contract';
import { callVerb, useBearerPartner } from './support/sandbox-partner';
import { createTestCore } from './support/test-core';

/**
 * Issue 29: where the organisation requires the patient's consent, main refuses a Start without
 * it whatever the window did, and the consent given is kept with the visit in History.
 */
let sandbox: Sandbox;
let core: AppCore | undefined;
beforeAll(async () => {
  sandbox = await startSandbox({ asr: 'energy' });
});
afterAll(() => sandbox.close());
afterEach(async () => {
  await core?.stop();
  core = undefined;
});

const WORDING = 'May I record our conversation?';

describe('the patient’s consent', () => {
  it('required by the policy: a Start without it is refused by name and nothing is created at the service', async () => {
    core = await createTestCore({
      policy: { kind: 'policy', file: '/etc/ambient-scribe/policy.json', policy: { consent: 'required' } },
    });
    await useBearerPartner(core, sandbox.url, 'dr-consent');
    const before = (
      (await (await fetch(`${sandbox.url}/__sandbox/sessions`)).json()) as { sessions: unknown[] }
    ).sessions.length;
    const refused = await core.router.dispatch('encounter.start', {
      kind: 'ambient',
      encounterId: 'noconsent1',
    });
    expect(refused).toMatchObject({
      ok: false,
      error: { fields: [{ field: 'consent', message: 'Patient consent is required before recording.' }] },
    });
    const after = (
      (await (await fetch(`${sandbox.url}/__sandbox/sessions`)).json()) as { sessions: unknown[] }
    ).sessions.length;
    expect(after).toBe(before);

    const at = Date.now();
    await callVerb(core, 'encounter.start', {
      kind: 'ambient',
      encounterId: 'consent1',
      consent: { method: 'written', wording: WORDING },
    });
    const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core, 'history.list');
    expect(entries[0]).toMatchObject({
      encounterId: 'consent1',
      consent: { method: 'written', wording: WORDING, providerId: 'dr-consent' },
    });
    expect(entries[0]!.consent!.at).toBeGreaterThanOrEqual(at);
    await callVerb(core, 'recorder.cancel');
  });

  it('not required: a Start without it records, and History keeps no consent', async () => {
    core = await createTestCore();
    await useBearerPartner(core, sandbox.url, 'dr-consent');
    await callVerb(core, 'encounter.start', { kind: 'ambient', encounterId: 'plain1' });
    const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core, 'history.list');
    expect(entries[0]?.consent).toBeUndefined();
    await callVerb(core, 'recorder.cancel');
  });
});
