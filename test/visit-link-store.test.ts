import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import type { AppCore } from '../src/main/core/app-core';
import { templateSections } from '../src/shared/note-templates';
import { bindAppEvents, createAppStore } from '../src/renderer/store/app-store';
import { linkQuestion } from '../src/renderer/store/visit-link-slice';
import { inProcessApi } from './support/in-process-api';
import { TEST_PIN, useBearerPartner } from './support/sandbox-partner';
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
  'ambient-scribe://visit?encounter_id=ehr4711&date_of_birth=1961-04-09&sex=FEMALE&specialty=CARDIOLOGY&template=soap&provider_id=dr-own';

describe('a visit link in the window', () => {
  it('fills the next visit with every field when the link is for the provider signed in', async () => {
    const { core, store } = await storeOnBearerPartner();
    expect(store.getState().auth?.providerId).toBe('dr-own');
    expect(core.openVisitLink(LINK).ok).toBe(true);
    await expect.poll(() => store.getState().visitLinks.next?.link.encounterId).toBe('ehr4711');

    // Consent given for the patient before: a link's visit is another patient, and a link never
    // gives consent (issue 29). Nor does it choose the visit's audio (issue 30): the clinician's
    // telehealth choice stands.
    store.getState().editDraft({ consent: { given: true, method: 'verbal' } });
    await store.getState().saveSettings({ visitAudio: 'telehealth' });
    expect(await store.getState().openLinkedVisit()).toBe(true);
    expect(store.getState().draft?.consent.given).toBe(false);
    expect(store.getState().settings?.visitAudio).toBe('telehealth');
    expect(store.getState().draft).toMatchObject({
      encounterId: 'ehr4711',
      dateOfBirth: '1961-04-09',
      sex: 'FEMALE',
      specialty: 'CARDIOLOGY',
      template: 'soap',
      sections: templateSections('soap', []),
    });
    expect(store.getState().linkedEncounterId).toBe('ehr4711');
    expect(store.getState().settings?.providerId).toBe('dr-own');
    await expect.poll(() => store.getState().auth).toMatchObject({ signedIn: true, providerId: 'dr-own' });
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

  it('a link for another provider changes nobody: refused in one sentence, the service hears nothing of them', async () => {
    const { core, store } = await storeOnBearerPartner();
    await expect.poll(() => store.getState().auth?.signedIn).toBe(true);
    const reading = core.openVisitLink(
      'ambient-scribe://visit?encounter_id=linkevil1&provider_id=dr-mallory',
    );
    expect(reading.ok).toBe(false);
    await expect
      .poll(() => store.getState().visitLinks.refused?.reason)
      .toBe('This link is for dr-mallory; you are signed in as dr-own. Nothing was changed.');
    expect(store.getState().visitLinks.next).toBeUndefined();
    expect(await store.getState().openLinkedVisit()).toBe(false);
    await store.getState().loadSettings();
    await store.getState().loadAuth();
    expect(store.getState().settings?.providerId).toBe('dr-own');
    expect(store.getState().auth).toMatchObject({ signedIn: true, providerId: 'dr-own' });
    const providers = (await (await fetch(`${sandbox.url}/__sandbox/providers`)).json()) as {
      providers: { provider_id: string }[];
    };
    expect(providers.providers.map((p) => p.provider_id)).not.toContain('dr-mallory');
  });

  it('where the policy lets links switch: nothing changes until the clinician confirms, never in the settings, and sign-out ends it', async () => {
    const { core, store } = await storeOnBearerPartner({
      policy: {
        kind: 'policy',
        file: '/etc/ambient-scribe/policy.json',
        policy: { linksMaySwitchProvider: true },
      },
    });
    await expect.poll(() => store.getState().auth?.providerId).toBe('dr-own');
    expect(core.openVisitLink('ambient-scribe://visit?encounter_id=locum1&provider_id=dr-locum').ok).toBe(
      true,
    );
    await expect
      .poll(() => store.getState().visitLinks.next?.providerSwitch)
      .toEqual({ from: 'dr-own', to: 'dr-locum' });
    expect(linkQuestion(store.getState(), false)).toBe('switch-provider');
    // Not confirmed: main refuses to switch, nothing is filled.
    expect(await store.getState().openLinkedVisit()).toBe(false);
    expect(store.getState().visitLinkError).toContain('confirm in the window');
    expect(store.getState().auth?.providerId).toBe('dr-own');
    // Confirmed: signed in as the link's provider, for this run, the settings untouched.
    expect(await store.getState().openLinkedVisit({ switchProvider: true })).toBe(true);
    expect(store.getState().draft?.encounterId).toBe('locum1');
    await expect.poll(() => store.getState().auth).toMatchObject({ signedIn: true, providerId: 'dr-locum' });
    await store.getState().loadSettings();
    expect(store.getState().settings?.providerId).toBe('dr-own');
    await store.getState().signOut();
    await store.getState().loadAuth();
    expect(store.getState().auth?.providerId).toBe('dr-own');
  });

  it('a link asks before it replaces visit details the clinician typed, or takes the window out of Settings', async () => {
    const { core, store } = await storeOnBearerPartner();
    core.openVisitLink(LINK);
    await expect.poll(() => store.getState().visitLinks.next?.link.encounterId).toBe('ehr4711');
    expect(linkQuestion(store.getState(), false)).toBeUndefined();
    expect(linkQuestion(store.getState(), true)).toBe('leave-settings');
    store.getState().editDraft({ dateOfBirth: '1950-01-01' });
    expect(linkQuestion(store.getState(), false)).toBe('replace-details');
    // Keep mine: the link goes, the typed details stay.
    await store.getState().declineLinkedVisit();
    expect(store.getState().visitLinks).toEqual({});
    expect(store.getState().draft?.dateOfBirth).toBe('1950-01-01');
    expect(await inProcessApi(core).call('visitLinks.get')).toEqual({});
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
    await store.getState().unlock({ pin: TEST_PIN });
    await expect.poll(() => store.getState().visitLinks.next?.link.encounterId).toBe('ehr4712');
  });

  it('sign out: main forgets the waiting link too', async () => {
    const { core, store } = await storeOnBearerPartner();
    core.openVisitLink(LINK);
    core.openVisitLink('ambient-scribe://visit?sex=F');
    await expect.poll(() => store.getState().visitLinks.refused).toBeDefined();
    await store.getState().signOut();
    expect(store.getState().visitLinks).toEqual({});
    // Signed out, main answers nobody about links (issue 39); signed in again, there is none.
    await expect(inProcessApi(core).call('visitLinks.get')).rejects.toThrow(
      'You signed out: sign in to see the visit the EHR sent.',
    );
    await inProcessApi(core).call('auth.signIn');
    // dr-own has a PIN here: Sign in opens the lock, which asks for it.
    await inProcessApi(core).call('privacy.unlock', { pin: TEST_PIN });
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
      problems: [
        {
          field: 'provider_id',
          rule: 'is for dr-own, but your organisation signs this computer in as dr-jdoe',
        },
      ],
    });
    await expect.poll(() => store.getState().visitLinks.refused?.problems).toHaveLength(1);
    expect(store.getState().visitLinks.next).toBeUndefined();
    // The same provider as the policy's is fine.
    expect(core.openVisitLink('ambient-scribe://visit?encounter_id=ehr4711&provider_id=dr-jdoe').ok).toBe(
      true,
    );
  });
});
