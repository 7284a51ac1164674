import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../sandbox/server';
import type { AppCore } from '../src/main/core/app-core';
import type { AuthStatus, HistoryEntry } from '../src/shared/contract';
import type { NoteDraftReading } from '../src/shared/contract/notes';
import { bindAppEvents, createAppStore } from '../src/renderer/store/app-store';
import { inProcessApi } from './support/in-process-api';
import { callVerb, useBearerPartner } from './support/sandbox-partner';
import { createTestCore } from './support/test-core';

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

const refusal = async (verb: Parameters<AppCore['router']['dispatch']>[0], payload?: unknown) => {
  const result = await core!.router.dispatch(verb, payload);
  return result.ok ? 'answered' : result.error.message;
};

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
    expect(await refusal('notes.get', { sessionId })).toBe('answered');
  });

  it('the idle lock: main opens nothing and calls the service for nobody until unlocked; never while recording', async () => {
    core = await createTestCore();
    await useBearerPartner(core, sandbox.url, 'dr-lock');
    await callVerb(core, 'encounter.start', { kind: 'ambient', encounterId: 'lock1' });
    expect(await refusal('privacy.lock')).toBe('A visit is being recorded: the window does not lock.');
    await callVerb(core, 'recorder.cancel');
    const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core, 'history.list');
    const sessionId = entries[0]!.sessionId;

    expect(await callVerb(core, 'privacy.lock')).toEqual({ locked: true });
    // A reload (or another tab) asks main: still locked.
    expect(await callVerb(core, 'privacy.status')).toEqual({ locked: true });
    expect(await refusal('results.get', { sessionId })).toBe(
      'This window is locked: unlock it to open a visit.',
    );
    expect(await refusal('notes.get', { sessionId })).toBe(
      'This window is locked: unlock it to see and keep your edits of this note.',
    );
    expect(await refusal('encounter.start', { kind: 'ambient', encounterId: 'lock2' })).toBe(
      'This window is locked: unlock it to record.',
    );
    expect(await callVerb(core, 'privacy.unlock')).toEqual({ locked: false });
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
    await store.getState().unlock();
    expect((await callVerb<NoteDraftReading>(core, 'notes.get', { sessionId })).draft?.sections).toEqual({
      '0:Plan': 'Typed just before the lock.',
    });
  });
});
