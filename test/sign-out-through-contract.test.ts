import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/main/core/ports';
import { createMemorySecretBox } from '../src/main/core/secrets/secret-box';
import type { PrivacyStatus } from '../src/shared/contract';
import { startSandbox, type Sandbox } from '../sandbox/server';
import type { AppCore } from '../src/main/core/app-core';
import type { AuthStatus, HistoryEntry, VerbName } from '../src/shared/contract';
import type { NoteDraftReading } from '../src/shared/contract/notes';
import { bindAppEvents, createAppStore } from '../src/renderer/store/app-store';
import { inProcessApi } from './support/in-process-api';
import {
  callVerb,
  SANDBOX_BEARER_TOKEN,
  TEST_PIN,
  useBearerPartner,
  whatCoreSays,
} from './support/sandbox-partner';
import { createTestCore, createTestCoreOn } from './support/test-core';

/**
 * Issue 29: after Sign out a Bearer partner's app (whose token is the organisation's, so it could
 * sign in again by itself) opens nothing of a visit and signs in on nobody's behalf until the
 * clinician presses Sign in.
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

const refusal = (verb: VerbName, payload?: unknown) => whatCoreSays(core!, verb, payload);

describe('signed out', () => {
  it('opens nothing and calls the service for nobody until Sign in', async () => {
    core = await createTestCore();
    await useBearerPartner(core, sandbox.url, 'dr-out');
    await callVerb(core, 'encounter.start', { kind: 'ambient', encounterId: 'out1' });
    await callVerb(core, 'recorder.cancel');
    const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core, 'history.list');
    const sessionId = entries[0]!.sessionId;

    const out = await callVerb<AuthStatus>(core, 'auth.signOut');
    expect(out).toMatchObject({ signedIn: false, signedOutByClinician: true });
    expect(await refusal('results.get', { sessionId })).toBe('You signed out: sign in to open a visit.');
    expect(await refusal('notes.get', { sessionId })).toBe(
      'You signed out: sign in to see and keep your edits of this note.',
    );
    // Nor the patient details kept with it (issue 31).
    expect(await refusal('notes.patient', { sessionId })).toBe(
      'You signed out: sign in to see and keep your edits of this note.',
    );
    expect(await refusal('encounter.start', { kind: 'ambient', encounterId: 'out2' })).toBe(
      'You signed out: sign in to record.',
    );
    expect(await refusal('forms.templates')).toBe('You signed out: sign in to see the forms.');
    // Nothing signed in by itself meanwhile: no call was made on the clinician's behalf.
    expect(await callVerb<AuthStatus>(core, 'auth.status')).toMatchObject({
      signedIn: false,
      signedOutByClinician: true,
    });

    const back = await callVerb<AuthStatus>(core, 'auth.signIn');
    expect(back).toMatchObject({ signedIn: true, providerId: 'dr-out' });
    expect(back.signedOutByClinician).toBeUndefined();
    // dr-out has a PIN here: Sign in opens the lock, which asks for it.
    expect(await refusal('notes.get', { sessionId })).toBe(
      'This window is locked: unlock it to see and keep your edits of this note.',
    );
    await callVerb(core, 'privacy.unlock', { pin: TEST_PIN });
    expect(await refusal('notes.get', { sessionId })).toBe('answered');
  });

  it('Sign out while the ended visit’s note is still being written: nothing signs in again by itself', async () => {
    core = await createTestCore({ resultsPolling: { firstDelayMs: 50, maxDelayMs: 200 } });
    await useBearerPartner(core, sandbox.url, 'dr-busy');
    await callVerb(core, 'encounter.start', { kind: 'ambient', encounterId: 'busy1' });
    await callVerb(core, 'recorder.end');
    await callVerb(core, 'auth.signOut');
    // The note's polling runs on meanwhile; with the organisation's token it used to sign in again.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await callVerb<AuthStatus>(core, 'auth.status')).toMatchObject({
      signedIn: false,
      signedOutByClinician: true,
    });
  });

  it('the idle lock: main opens nothing and calls the service for nobody until unlocked; never while recording', async () => {
    core = await createTestCore();
    await useBearerPartner(core, sandbox.url, 'dr-lock');
    await callVerb(core, 'encounter.start', { kind: 'ambient', encounterId: 'lock1' });
    expect(await refusal('privacy.lock')).toBe('A visit is being recorded: the window does not lock.');
    await callVerb(core, 'recorder.cancel');
    const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core, 'history.list');
    const sessionId = entries[0]!.sessionId;

    // dr-lock chose their PIN at sign-in (useBearerPartner; the PIN's own steps: the tests below).
    expect(await callVerb(core, 'privacy.lock')).toMatchObject({ locked: true, unlockWith: 'pin' });
    // A reload (or another tab) asks main: still locked.
    expect(await callVerb(core, 'privacy.status')).toMatchObject({ locked: true, clinician: 'dr-lock' });
    expect(await refusal('results.get', { sessionId })).toBe(
      'This window is locked: unlock it to open a visit.',
    );
    expect(await refusal('notes.get', { sessionId })).toBe(
      'This window is locked: unlock it to see and keep your edits of this note.',
    );
    expect(await refusal('notes.patient', { sessionId })).toBe(
      'This window is locked: unlock it to see and keep your edits of this note.',
    );
    expect(await refusal('encounter.start', { kind: 'ambient', encounterId: 'lock2' })).toBe(
      'This window is locked: unlock it to record.',
    );
    expect(await callVerb(core, 'privacy.unlock', { pin: TEST_PIN })).toMatchObject({ locked: false });
    expect(await refusal('notes.get', { sessionId })).toBe('answered');
  });

  it('the idle lock a moment after a keystroke: the edit reaches main before the lock does', async () => {
    core = await createTestCore();
    await useBearerPartner(core, sandbox.url, 'dr-lock');
    await callVerb(core, 'encounter.start', { kind: 'ambient', encounterId: 'lock3' });
    await callVerb(core, 'recorder.cancel');
    const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core, 'history.list');
    const sessionId = entries[0]!.sessionId;
    const api = inProcessApi(core);
    const store = createAppStore(api);
    bindAppEvents(store, api);
    await store.getState().loadAuth();
    await store.getState().loadNoteDraft(sessionId);
    store.getState().editSection('0:Plan', 'Typed just before the lock.');
    store.getState().lockForIdle();
    await expect.poll(async () => (await callVerb(core!, 'privacy.status')).locked).toBe(true);
    await store.getState().unlock({ pin: TEST_PIN });
    expect((await callVerb<NoteDraftReading>(core, 'notes.get', { sessionId })).draft?.sections).toEqual({
      '0:Plan': 'Typed just before the lock.',
    });
  });
});

/**
 * A Bearer partner's token is the organisation's: the PIN a clinician chose here is what proves
 * who unlocks the window, signs in again after Sign out, or opens the app after a restart.
 */
describe('the PIN', () => {
  /** A core on `dir` and `secrets`: the same laptop across restarts. */
  const coreOn = createTestCoreOn;
  const visit = async (encounterId: string) => {
    await callVerb(core!, 'encounter.start', { kind: 'ambient', encounterId });
    await callVerb(core!, 'recorder.cancel');
    const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core!, 'history.list');
    return entries[0]!.sessionId;
  };

  it('is chosen at the first sign-in, unlocks only when right, and holds across Sign out and a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scribe-pin-'));
    const secrets = createMemorySecretBox();
    core = await coreOn(dir, secrets);
    await useBearerPartner(core, sandbox.url, 'dr-pin', {}, { choosePin: false });
    await callVerb(core, 'auth.signIn');
    expect(await callVerb<PrivacyStatus>(core, 'privacy.status')).toMatchObject({
      locked: false,
      pinNeeded: true,
    });
    expect(await refusal('privacy.setPin', { pin: '12a4' })).toBe('PIN: Use 4 to 12 digits.');
    expect(await refusal('privacy.setPin', { pin: '123' })).toBe('PIN: Use 4 to 12 digits.');
    expect(await callVerb(core, 'privacy.setPin', { pin: '2468' })).toMatchObject({ pinNeeded: false });
    // A second PIN cannot replace the first without it.
    expect(await refusal('privacy.setPin', { pin: '1357' })).toBe('You already have a PIN on this computer.');
    const sessionId = await visit('pin1');

    expect(await callVerb(core, 'privacy.lock')).toMatchObject({
      locked: true,
      unlockWith: 'pin',
      pinTriesLeft: 10,
    });
    expect(await refusal('privacy.unlock')).toBe('Enter your PIN to unlock this window.');
    expect(await refusal('privacy.unlock', { signIn: true })).toBe('Enter your PIN to unlock this window.');
    expect(await refusal('privacy.unlock', { pin: '1111' })).toBe('That PIN is not right. 9 tries left.');
    expect(await callVerb(core, 'privacy.status')).toMatchObject({ locked: true, pinTriesLeft: 9 });
    expect(await refusal('results.get', { sessionId })).toBe(
      'This window is locked: unlock it to open a visit.',
    );
    expect(await callVerb(core, 'privacy.unlock', { pin: '2468' })).toMatchObject({ locked: false });
    expect(await refusal('notes.get', { sessionId })).toBe('answered');
    // The right PIN resets the count.
    await callVerb(core, 'privacy.lock');
    expect(await callVerb(core, 'privacy.status')).toMatchObject({ pinTriesLeft: 10 });
    await callVerb(core, 'privacy.unlock', { pin: '2468' });

    // Sign out, then Sign in: the organisation's token signs in, the PIN still opens the window.
    await callVerb(core, 'auth.signOut');
    expect(await callVerb(core, 'privacy.status')).toMatchObject({ locked: false });
    await callVerb(core, 'auth.signIn');
    expect(await callVerb(core, 'privacy.status')).toMatchObject({ locked: true, unlockWith: 'pin' });
    expect(await refusal('notes.get', { sessionId })).toBe(
      'This window is locked: unlock it to see and keep your edits of this note.',
    );
    await callVerb(core, 'privacy.unlock', { pin: '2468' });

    // A restart: the app starts locked for dr-pin, and resumes nothing on their behalf until unlocked.
    await core.stop();
    core = await coreOn(dir, secrets);
    expect(await callVerb(core, 'privacy.status')).toMatchObject({
      locked: true,
      unlockWith: 'pin',
      clinician: 'dr-pin',
    });
    expect(await refusal('results.get', { sessionId })).toBe(
      'This window is locked: unlock it to open a visit.',
    );
    expect(await callVerb(core, 'privacy.unlock', { pin: '2468' })).toMatchObject({ locked: false });
    expect(await refusal('results.get', { sessionId })).toBe('answered');
  });

  it('wrong PINs slow down (a wait after the third, doubling), the tenth signs the window out; only the partner token entered again lets the clinician back', async () => {
    // The wall clock, moved on by the test past each wait (30 s to 32 min).
    let skipped = 0;
    core = await createTestCore({ clock: { ...systemClock, now: () => Date.now() + skipped } });
    await useBearerPartner(core, sandbox.url, 'dr-tries', {}, { choosePin: false });
    await callVerb(core, 'auth.signIn');
    await callVerb(core, 'privacy.setPin', { pin: '8642' });
    const sessionId = await visit('tries1');
    await callVerb(core, 'privacy.lock');
    for (const left of [9, 8])
      expect(await refusal('privacy.unlock', { pin: `000${left}` })).toBe(
        `That PIN is not right. ${left} tries left.`,
      );
    expect(await refusal('privacy.unlock', { pin: '0007' })).toBe(
      'That PIN is not right. Wait 30 seconds before the next try (7 tries left before IT must reset it).',
    );
    const waiting = await callVerb<PrivacyStatus>(core, 'privacy.status');
    expect(waiting).toMatchObject({ locked: true, pinTriesLeft: 7 });
    expect(waiting.pinWaitMs).toBeGreaterThan(28_000);
    // During the wait even the right PIN is not tried, and no try is spent.
    expect(await refusal('privacy.unlock', { pin: '8642' })).toMatch(
      /^Too many wrong PINs: wait (29|30) seconds before the next try \(7 tries left before IT must reset it\)\.$/,
    );
    const waits: string[] = [];
    for (let left = 6; left >= 1; left -= 1) {
      const { pinWaitMs } = await callVerb<PrivacyStatus>(core, 'privacy.status');
      skipped += pinWaitMs!;
      const refused = await refusal('privacy.unlock', { pin: '0000' });
      expect(refused).toContain(`(${left} ${left === 1 ? 'try' : 'tries'} left before IT must reset it)`);
      waits.push(/Wait (.+) before the next try/.exec(refused)?.[1] ?? refused);
    }
    expect(waits).toEqual(['60 seconds', '2 minutes', '4 minutes', '8 minutes', '16 minutes', '32 minutes']);
    const { pinWaitMs } = await callVerb<PrivacyStatus>(core, 'privacy.status');
    skipped += pinWaitMs!;
    expect(await refusal('privacy.unlock', { pin: '0000' })).toBe(
      'Too many wrong PINs: this window signed out. Your IT admin enters the partner token again in Settings; then dr-tries signs in and chooses a new PIN.',
    );
    expect(await callVerb<AuthStatus>(core, 'auth.status')).toMatchObject({
      signedIn: false,
      signedOutByClinician: true,
    });
    expect(await refusal('results.get', { sessionId })).toBe('You signed out: sign in to open a visit.');
    // The right PIN now is no better than a wrong one: Sign in is refused by name.
    expect(await refusal('auth.signIn')).toBe(
      'dr-tries cannot sign in here until your IT admin enters the partner token again in Settings: too many wrong PINs.',
    );
    expect(await callVerb<AuthStatus>(core, 'auth.status')).toMatchObject({ signedIn: false });

    // IT enters the partner token again: dr-tries signs in and chooses a new PIN.
    // Sign in pressed as soon as IT's Save comes back works on that press: it waits for the
    // token's check (a sign-in with it, the blocked PIN cleared) that the Save started.
    await callVerb(core, 'secrets.setPartnerToken', { token: SANDBOX_BEARER_TOKEN });
    await callVerb(core, 'auth.signIn');
    expect(await callVerb(core, 'privacy.status')).toMatchObject({ locked: false, pinNeeded: true });
    await callVerb(core, 'privacy.setPin', { pin: '9753' });
    expect(await refusal('notes.get', { sessionId })).toBe('answered');
  });

  it('a blocked PIN lets nobody in as its clinician: not Settings, not a typed token the service refuses', async () => {
    let skipped = 0;
    core = await createTestCore({ clock: { ...systemClock, now: () => Date.now() + skipped } });
    await useBearerPartner(core, sandbox.url, 'dr-victim', {}, { choosePin: false });
    await callVerb(core, 'auth.signIn');
    await callVerb(core, 'privacy.setPin', { pin: '4321' });
    const sessionId = await visit('victim1');
    await callVerb(core, 'privacy.lock');
    for (let tried = 1; tried < 10; tried += 1) {
      const { pinWaitMs } = await callVerb<PrivacyStatus>(core, 'privacy.status');
      if (pinWaitMs) skipped += pinWaitMs;
      expect(await refusal('privacy.unlock', { pin: '0000' })).toMatch(/^That PIN is not right/);
    }
    skipped += (await callVerb<PrivacyStatus>(core, 'privacy.status')).pinWaitMs!;
    expect(await refusal('privacy.unlock', { pin: '0005' })).toMatch(
      /^Too many wrong PINs: this window signed out/,
    );

    // Another provider signs in (the same partner token), then Settings names the victim again:
    // signed out at once.
    await callVerb(core, 'settings.set', { providerId: 'dr-evil' });
    await callVerb(core, 'auth.signIn');
    await callVerb(core, 'privacy.setPin', { pin: '1111' });
    await callVerb(core, 'settings.set', { providerId: 'dr-victim' });
    expect(await callVerb<AuthStatus>(core, 'auth.status')).toMatchObject({ signedOutByClinician: true });
    expect(await refusal('results.get', { sessionId })).toBe('You signed out: sign in to open a visit.');
    expect(await refusal('auth.signIn')).toMatch(
      /^dr-victim cannot sign in here until your IT admin enters the partner token again/,
    );

    // Any text typed as the partner token clears nothing: only one the service takes.
    await callVerb(core, 'secrets.setPartnerToken', { token: 'not-the-organisations-token' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await refusal('auth.signIn')).toMatch(
      /^dr-victim cannot sign in here until your IT admin enters the partner token again/,
    );
    expect(await refusal('results.get', { sessionId })).toBe('You signed out: sign in to open a visit.');
  });

  it('a locked window changes nobody: who signs in, the partner token and a link’s provider wait for the unlock', async () => {
    core = await createTestCore();
    await useBearerPartner(core, sandbox.url, 'dr-locked', {}, { choosePin: false });
    await callVerb(core, 'auth.signIn');
    await callVerb(core, 'privacy.setPin', { pin: '2580' });
    await callVerb(core, 'privacy.lock');
    expect(await refusal('settings.set', { providerId: 'dr-else' })).toBe(
      'This window is locked: unlock it to change the settings.',
    );
    expect(await refusal('secrets.setPartnerToken', { token: SANDBOX_BEARER_TOKEN })).toBe(
      'This window is locked: unlock it to enter the partner token.',
    );
    expect(await refusal('auth.signIn')).toBe('This window is locked: unlock it first.');
    expect(await refusal('visitLinks.take', { id: 1, switchProvider: true })).toBe(
      'This window is locked: unlock it to take the visit the EHR sent.',
    );
    // Nor the rest of the settings: a locked window changes nothing (issue 39, item 8).
    expect(await refusal('settings.set', { theme: 'dark' })).toBe(
      'This window is locked: unlock it to change the settings.',
    );
    expect(await callVerb(core, 'privacy.status')).toMatchObject({ locked: true, clinician: 'dr-locked' });
  });

  it('is each clinician’s own: another provider’s PIN opens nothing of dr-a’s', async () => {
    core = await createTestCore();
    await useBearerPartner(core, sandbox.url, 'dr-a', {}, { choosePin: false });
    await callVerb(core, 'auth.signIn');
    await callVerb(core, 'privacy.setPin', { pin: '1111' });
    await callVerb(core, 'auth.signOut');
    await useBearerPartner(core, sandbox.url, 'dr-b', {}, { choosePin: false });
    await callVerb(core, 'auth.signIn');
    expect(await callVerb(core, 'privacy.status')).toMatchObject({ locked: false, pinNeeded: true });
    await callVerb(core, 'privacy.setPin', { pin: '2222' });
    await callVerb(core, 'auth.signOut');
    // Back as dr-a: dr-b's PIN is wrong here.
    await useBearerPartner(core, sandbox.url, 'dr-a', {}, { choosePin: false });
    await callVerb(core, 'auth.signIn');
    expect(await callVerb(core, 'privacy.status')).toMatchObject({ locked: true, clinician: 'dr-a' });
    expect(await refusal('privacy.unlock', { pin: '2222' })).toBe('That PIN is not right. 9 tries left.');
    expect(await callVerb(core, 'privacy.unlock', { pin: '1111' })).toMatchObject({ locked: false });
    const sessionId = await visit('minea');

    // No Sign out this time: dr-b's provider ID typed into Settings over dr-a's signed-in window.
    await callVerb(core, 'settings.set', { providerId: 'dr-b' });
    expect(await callVerb(core, 'privacy.status')).toMatchObject({ locked: true, clinician: 'dr-b' });
    expect(await refusal('encounter.start', { kind: 'ambient', encounterId: 'asb' })).toBe(
      'This window is locked: unlock it to record.',
    );
    await callVerb(core, 'privacy.unlock', { pin: '2222' });
    // And back to dr-a's: their PIN again, and their visit opens only then.
    await callVerb(core, 'settings.set', { providerId: 'dr-a' });
    expect(await refusal('results.get', { sessionId })).toBe(
      'This window is locked: unlock it to open a visit.',
    );
    await callVerb(core, 'privacy.unlock', { pin: '1111' });
    expect(await refusal('results.get', { sessionId })).toBe('answered');
  });
});
