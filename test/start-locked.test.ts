import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import type { AppCore } from '../src/main/core/app-core';
import { headlessBrowser, type HeadlessBrowser } from '../src/main/core/auth/testing/headless-browser';
import {
  createMemorySecretBox,
  OIDC_SUBJECT_NAME,
  type SecretBox,
} from '../src/main/core/secrets/secret-box';
import type { AuthStatus, HistoryEntry, PrivacyStatus, VerbName } from '../src/shared/contract';
import { callVerb, useBearerPartner, whatCoreSays } from './support/sandbox-partner';
import { createTestCoreOn } from './support/test-core';

/**
 * Issue 39, item 3: the lock does not live in a file a user can delete. A standard partner's
 * sign-in kept on this computer (its refresh token) starts the app locked for its clinician,
 * whatever privacy.json says; a lock that names nobody (a file edited by hand) is the lock of
 * whoever the app signs in as, never Continue.
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

/** A core on `dir` and `secrets` (the same laptop across restarts), its system browser `browser`. */
const coreOn = (dir: string, secrets: SecretBox, browser?: HeadlessBrowser) =>
  createTestCoreOn(dir, secrets, browser ? { openExternal: (url: string) => browser.openExternal(url) } : {});

const refusal = (verb: VerbName, payload?: unknown) => whatCoreSays(core!, verb, payload);

/**
 * privacy.json written by hand with a lock that names nobody. The app seals that file (issue 39), so
 * this one is not the app's and reads as missing: the lock comes from what is kept here.
 */
const writeLockForNobody = (dir: string, partnerId: string, model: 'standard' | 'bearer') =>
  writeFile(
    join(dir, 'privacy.json'),
    JSON.stringify({
      lockedFor: { target: { service: sandbox.url, partnerId, providerId: '', model }, model, demo: false },
    }),
  );

/** The encounter ID of a clinician's visit (letters and digits only). */
const visitOf = (username: string) => `${username.replace(/[^A-Za-z0-9]/g, '')}visit`;

/** A standard partner's clinician signs in through the sandbox's IdP and records one visit. */
async function standardClinicianWithAVisit(dir: string, secrets: SecretBox, username: string) {
  core = await coreOn(dir, secrets, headlessBrowser({ username }));
  await callVerb(core, 'settings.set', {
    service: { kind: 'url', baseUrl: sandbox.url },
    partnerId: 'demo-standard',
    authModel: 'standard',
    oidcIssuer: `${sandbox.url}/idp`,
    oidcClientId: 'ambient-scribe-desktop',
    firstRunComplete: true,
  });
  expect(await callVerb<AuthStatus>(core, 'auth.signIn')).toMatchObject({
    signedIn: true,
    providerId: username,
  });
  await callVerb(core, 'encounter.start', { kind: 'ambient', encounterId: visitOf(username) });
  await callVerb(core, 'recorder.cancel');
  const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core, 'history.list');
  expect(entries.map((entry) => entry.encounterId)).toEqual([visitOf(username)]);
  await core.stop();
  core = undefined;
}

describe('a standard partner’s sign-in kept on this computer', () => {
  it('starts locked for its clinician with privacy.json deleted, or its lock emptied by hand', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scribe-kept-'));
    const secrets = createMemorySecretBox();
    await standardClinicianWithAVisit(dir, secrets, 'dr-kept');

    // Killed, privacy.json deleted, started: before, the refresh token signed in with no lock.
    await rm(join(dir, 'privacy.json'), { force: true });
    core = await coreOn(dir, secrets, headlessBrowser({ username: 'dr-other' }));
    expect(await callVerb<PrivacyStatus>(core, 'privacy.status')).toMatchObject({
      locked: true,
      unlockWith: 'identity-provider',
      clinician: 'dr-kept',
    });
    expect(await refusal('history.list')).toBe('This window is locked: unlock it to see your visits.');
    // Someone else at the IdP: refused, still locked.
    expect(await refusal('privacy.unlock', { signIn: true })).toContain(
      "You signed in as dr-other; this window is dr-kept's. It stays locked",
    );
    await core.stop();

    // A lock for nobody written into the file by hand: still dr-kept's, never Continue.
    await writeLockForNobody(dir, 'demo-standard', 'standard');
    core = await coreOn(dir, secrets, headlessBrowser({ username: 'dr-kept' }));
    expect(await callVerb<PrivacyStatus>(core, 'privacy.status')).toMatchObject({
      locked: true,
      unlockWith: 'identity-provider',
      clinician: 'dr-kept',
    });
    // dr-kept themself, at the IdP: open again, with their visit.
    expect(await callVerb<PrivacyStatus>(core, 'privacy.unlock', { signIn: true })).toMatchObject({
      locked: false,
    });
    const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core, 'history.list');
    expect(entries.map((entry) => entry.encounterId)).toEqual([visitOf('dr-kept')]);
  });

  it('whose clinician is not recorded starts locked for whoever proves it at the IdP, who sees only their own visits', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scribe-kept-'));
    const secrets = createMemorySecretBox();
    await standardClinicianWithAVisit(dir, secrets, 'dr-first');
    await rm(join(dir, 'privacy.json'), { force: true });
    await secrets.delete(OIDC_SUBJECT_NAME);

    core = await coreOn(dir, secrets, headlessBrowser({ username: 'dr-next' }));
    const status = await callVerb<PrivacyStatus>(core, 'privacy.status');
    expect(status).toMatchObject({ locked: true, unlockWith: 'identity-provider' });
    expect(status.clinician).toBeUndefined();
    expect(await refusal('history.list')).toBe('This window is locked: unlock it to see your visits.');

    expect(await callVerb<PrivacyStatus>(core, 'privacy.unlock', { signIn: true })).toMatchObject({
      locked: false,
    });
    expect(await callVerb<AuthStatus>(core, 'auth.status')).toMatchObject({
      signedIn: true,
      providerId: 'dr-next',
    });
    const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core, 'history.list');
    expect(entries).toEqual([]);
  });
});

describe('a lock that names nobody', () => {
  it('is, for a Bearer partner’s clinician with a PIN, their PIN’s lock: not Continue', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scribe-nobody-'));
    const secrets = createMemorySecretBox();
    core = await coreOn(dir, secrets);
    await useBearerPartner(core, sandbox.url, 'dr-pin', {}, { choosePin: false });
    await callVerb(core, 'auth.signIn');
    await callVerb(core, 'privacy.setPin', { pin: '2468' });
    await callVerb(core, 'privacy.lock');
    await core.stop();

    await writeLockForNobody(dir, 'demo-bearer', 'bearer');
    core = await coreOn(dir, secrets);
    expect(await callVerb<PrivacyStatus>(core, 'privacy.status')).toMatchObject({
      locked: true,
      unlockWith: 'pin',
      clinician: 'dr-pin',
    });
    expect(await refusal('privacy.unlock')).toBe('Enter your PIN to unlock this window.');
  });
});
