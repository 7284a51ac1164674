import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import type { AppCore } from '../src/main/core/app-core';
import { templateSections } from '../src/shared/note-templates';
import { bindAppEvents, createAppStore } from '../src/renderer/store/app-store';
import { inProcessApi } from './support/in-process-api';
import { useBearerPartner } from './support/sandbox-partner';
import { createTestCore } from './support/test-core';

/**
 * Visit links through the real core and the renderer's store (issue 18): main reads the link,
 * the store fills the next visit from it and signs its provider in; the next visit after it is the
 * clinician's own again; a locked window and a sign-out keep nothing of it.
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

async function storeOnBearerPartner(policy?: Parameters<typeof createTestCore>[0]) {
  core = await createTestCore(policy ?? {});
  await useBearerPartner(core, sandbox.url, 'dr-own', {
    noteTemplate: 'problem-focused',
    firstRunComplete: true,
  });
  const api = inProcessApi(core);
  const store = createAppStore(api);
  bindAppEvents(store, api);
  await store.getState().loadSettings();
  await store.getState().loadAuth();
  return { core, store };
}

const LINK =
  'ambient-scribe://visit?encounter_id=ehr4711&date_of_birth=1961-04-09&sex=FEMALE&specialty=CARDIOLOGY&template=soap&provider_id=dr-ehr';

describe('a visit link in the window', () => {
  it("fills the next visit with every field and signs the link's provider in", async () => {
    const { core, store } = await storeOnBearerPartner();
    expect(store.getState().auth?.providerId).toBe('dr-own');
    expect(core.openVisitLink(LINK).ok).toBe(true);
    await expect.poll(() => store.getState().visitLinks.next?.link.encounterId).toBe('ehr4711');

    expect(await store.getState().openLinkedVisit()).toBe(true);
    expect(store.getState().draft).toMatchObject({
      encounterId: 'ehr4711',
      dateOfBirth: '1961-04-09',
      sex: 'FEMALE',
      specialty: 'CARDIOLOGY',
      template: 'soap',
      sections: templateSections('soap', []),
    });
    expect(store.getState().linkedEncounterId).toBe('ehr4711');
    expect(store.getState().settings?.providerId).toBe('dr-ehr');
    await expect.poll(() => store.getState().auth).toMatchObject({ signedIn: true, providerId: 'dr-ehr' });
    // Taken: main holds it no more, and the store does not open it twice.
    await expect.poll(() => store.getState().visitLinks).toEqual({});
    expect(await store.getState().openLinkedVisit()).toBe(false);

    // The next visit has the clinician's own template again, and nothing of the link's patient.
    store.getState().nextVisit();
    expect(store.getState().draft).toMatchObject({
      dateOfBirth: '',
      sex: '',
      sections: templateSections('problem-focused', []),
    });
    expect(store.getState().draft?.template).toBeUndefined();
    expect(store.getState().draft?.encounterId).not.toBe('ehr4711');
    // The link's template was for its visit: the settings keep the clinician's.
    expect(store.getState().settings?.noteTemplate).toBe('problem-focused');
  });

  it('a locked window holds nothing of a waiting link; unlocked, it has it again', async () => {
    const { core, store } = await storeOnBearerPartner();
    core.openVisitLink(LINK);
    await expect.poll(() => store.getState().visitLinks.next?.link.encounterId).toBe('ehr4711');
    store.getState().lockForIdle();
    expect(store.getState().visitLinks).toEqual({});
    // Another link while locked does not reach the window's memory either.
    core.openVisitLink('ambient-scribe://visit?encounter_id=ehr4712');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.getState().visitLinks).toEqual({});
    store.getState().unlock();
    await expect.poll(() => store.getState().visitLinks.next?.link.encounterId).toBe('ehr4712');
  });

  it('sign out: main forgets the waiting link too', async () => {
    const { core, store } = await storeOnBearerPartner();
    core.openVisitLink(LINK);
    core.openVisitLink('ambient-scribe://visit?sex=F');
    await expect.poll(() => store.getState().visitLinks.refused).toBeDefined();
    await store.getState().signOut();
    expect(store.getState().visitLinks).toEqual({});
    expect(await inProcessApi(core).call('visitLinks.get')).toEqual({});
  });

  it('a policy that locks the provider ID refuses a link naming another, and fills nothing', async () => {
    core = await createTestCore({
      policy: {
        kind: 'policy',
        file: '/etc/ambient-scribe/policy.json',
        policy: { authModel: 'bearer', providerId: 'dr-{username}', locked: ['providerId'] },
      },
      username: 'jdoe',
    });
    const api = inProcessApi(core);
    const store = createAppStore(api);
    bindAppEvents(store, api);
    expect(core.openVisitLink(LINK)).toEqual({
      ok: false,
      problems: [{ field: 'provider_id', rule: 'must be the provider ID your organisation’s policy sets' }],
    });
    await expect.poll(() => store.getState().visitLinks.refused?.problems).toHaveLength(1);
    expect(store.getState().visitLinks.next).toBeUndefined();
    // The same provider as the policy's is fine.
    expect(core.openVisitLink('ambient-scribe://visit?encounter_id=ehr4711&provider_id=dr-jdoe').ok).toBe(
      true,
    );
  });
});
