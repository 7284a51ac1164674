import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../src/main/core/app-core';
import {
  EVENT_NAMES,
  VERB_NAMES,
  type EventName,
  type HistoryEntry,
  type VerbName,
} from '../src/shared/contract';
import { EVENT_GATES, VERB_GATES } from '../src/shared/contract/gates';
import { startSandbox, type Sandbox } from '../sandbox/server';
import {
  callVerb,
  chooseTestPin,
  signInWithTestPin,
  useBearerPartner,
  whatCoreSays,
} from './support/sandbox-partner';
import { createTestCore } from './support/test-core';

/**
 * Issue 39's gate table: every verb of the contract against every state the window can be in when
 * someone other than the visit's clinician is at it. Signed out or locked, only the open verbs
 * answer (and the settings that say who signs in, while signed out); another clinician signed in
 * on the same computer reaches none of the first one's visits. A verb with no declared gate, or no
 * request here to try it with, fails the first test.
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

/** A request for each verb that its schema accepts, naming the first clinician's visit where it takes one. */
const REQUESTS: Record<VerbName, (sessionId: string) => unknown> = {
  'app.info': () => undefined,
  'settings.get': () => undefined,
  // Not who signs in: the clinician's own (item 8).
  'settings.set': () => ({ idleLockMinutes: 7 }),
  'secrets.status': () => undefined,
  'secrets.setPartnerToken': () => ({ token: 'sandbox-bearer-partner-token' }),
  'auth.status': () => undefined,
  'auth.signIn': () => undefined,
  'auth.cancelSignIn': () => undefined,
  'auth.signOut': () => undefined,
  'encounter.start': () => ({ kind: 'ambient', encounterId: 'gate2' }),
  'encounter.addForms': () => ({ formItems: [{ form_template_id: 'soap' }] }),
  'recorder.state': () => undefined,
  'recorder.attach': () => undefined,
  'recorder.pause': () => undefined,
  'recorder.resume': () => undefined,
  'recorder.end': () => undefined,
  'recorder.cancel': () => undefined,
  'results.get': (sessionId) => ({ sessionId }),
  'history.list': () => undefined,
  'history.finish': (sessionId) => ({ sessionId }),
  'history.discard': (sessionId) => ({ sessionId }),
  'forms.templates': () => undefined,
  'forms.feedback': (sessionId) => ({ sessionId, formId: 'f1', feedback: { rating: 4 } }),
  'visitLinks.get': () => undefined,
  'visitLinks.take': () => ({ id: 1 }),
  'visitLinks.decline': () => ({ id: 1 }),
  'notes.get': (sessionId) => ({ sessionId }),
  'notes.save': (sessionId) => ({ sessionId, sections: {}, fields: {} }),
  'notes.finish': (sessionId) => ({ sessionId }),
  'notes.unfinish': (sessionId) => ({ sessionId }),
  'notes.patient': (sessionId) => ({ sessionId }),
  'recording.span': (sessionId) => ({ sessionId, fromMs: 0, toMs: 1_000 }),
  'privacy.status': () => undefined,
  'privacy.lock': () => undefined,
  'privacy.unlock': () => ({ pin: '0000' }),
  'privacy.setPin': () => ({ pin: '2468' }),
};

/** The sentence a refused call says, or `answered`. */
const answer = (verb: VerbName, payload: unknown) => whatCoreSays(core!, verb, payload);

/** dr-first records a visit (cancelled: its audio kept, as History knows it) and gives it back. */
async function firstClinicianVisit(): Promise<string> {
  core = await createTestCore();
  await useBearerPartner(core, sandbox.url, 'dr-first');
  await callVerb(core, 'encounter.start', { kind: 'ambient', encounterId: 'gate1' });
  await callVerb(core, 'recorder.end');
  const { entries } = await callVerb<{ entries: HistoryEntry[] }>(core, 'history.list');
  return entries[0]!.sessionId;
}

/** Every verb whose gate is one of `kinds`, with what it answered in this state. */
async function answers(sessionId: string, kinds: string[]): Promise<[VerbName, string][]> {
  const out: [VerbName, string][] = [];
  for (const verb of VERB_NAMES) {
    if (!kinds.includes(VERB_GATES[verb].kind)) continue;
    // Payload problems would hide the gate: every request here is valid for its verb.
    const said = await answer(verb, REQUESTS[verb](sessionId));
    expect(said, `${verb}'s request is valid`).not.toMatch(/ must | is required|expected/);
    out.push([verb, said]);
  }
  return out;
}

describe('the gate table', () => {
  it('declares a gate for every verb of the contract, and nothing else', () => {
    expect(Object.keys(VERB_GATES).sort()).toEqual([...VERB_NAMES].sort());
    expect(Object.keys(REQUESTS).sort()).toEqual([...VERB_NAMES].sort());
    for (const verb of VERB_NAMES)
      expect(['open', 'not locked', 'unlocked', 'owner'], verb).toContain(VERB_GATES[verb].kind);
  });

  it('signed out: every verb but the open ones and who signs in is refused, saying to sign in', async () => {
    const sessionId = await firstClinicianVisit();
    await callVerb(core!, 'auth.signOut');
    for (const [verb, said] of await answers(sessionId, ['unlocked', 'owner']))
      expect(said, verb).toMatch(/^You signed out: sign in to /);
    // The settings the clinician keeps are theirs, not the next person's (item 8)...
    expect(await answer('settings.set', { idleLockMinutes: 7 })).toBe(
      'You signed out: sign in to change these settings.',
    );
    // ...who signs in is not ("Not you?"), nor a page saved whole with the rest unchanged.
    const { idleLockMinutes } = await callVerb<{ idleLockMinutes: number }>(core!, 'settings.get');
    expect(await answer('settings.set', { providerId: 'dr-next', idleLockMinutes })).toBe('answered');
  });

  it('locked: every verb but the open ones is refused, saying to unlock', async () => {
    const sessionId = await firstClinicianVisit();
    await callVerb(core!, 'privacy.lock');
    for (const [verb, said] of await answers(sessionId, ['not locked', 'unlocked', 'owner']))
      expect(said, verb).toMatch(/^This window is locked: unlock it to /);
  });

  it('a clinician who has not chosen their PIN yet: every verb but the open ones and the lock’s is refused, saying to choose it', async () => {
    const sessionId = await firstClinicianVisit();
    // Another provider of the same shared partner token signs in: the window asks them for a PIN
    // before anything else, and the contract refuses the rest until then, to every caller.
    await callVerb(core!, 'settings.set', { providerId: 'dr-new' });
    // Not signed in yet (a bearer partner signs in at its first call to the service): no visit starts.
    expect(await answer('encounter.start', REQUESTS['encounter.start'](sessionId))).toBe(
      'Sign in and choose your PIN for this computer first, then record.',
    );
    await callVerb(core!, 'auth.signIn');
    expect(await callVerb(core!, 'privacy.status')).toMatchObject({ locked: false, pinNeeded: true });
    for (const [verb, said] of await answers(sessionId, ['unlocked', 'owner']))
      expect(said, verb).toMatch(/^Choose your PIN for this computer first, then /);
  });

  it('another clinician signed in on the same computer reaches none of the first one’s visits', async () => {
    const sessionId = await firstClinicianVisit();
    await callVerb(core!, 'settings.set', { providerId: 'dr-second' });
    await callVerb(core!, 'auth.signIn');
    await chooseTestPin(core!);
    const owners = await answers(sessionId, ['owner']);
    expect(owners.length).toBeGreaterThan(5);
    for (const [verb, said] of owners)
      expect(said, verb).toBe(`Sign in as dr-first at ${new URL(sandbox.url).host} to open this visit.`);
    // Not even from this run's memory of it (item 5): results.get answered from it before.
    expect(await answer('results.get', { sessionId })).not.toBe('answered');
    // Nor which visit the recorder last recorded (item 5).
    const recorder = await callVerb<Record<string, unknown>>(core!, 'recorder.state');
    expect(recorder.sessionId).toBeUndefined();
    expect(recorder.encounterId).toBeUndefined();
    // A visit History does not know is nobody's.
    expect(await answer('notes.get', { sessionId: 'not-a-visit' })).toBe(
      'This app has no visit of that recording: open the visit from History.',
    );
  });
});

describe('a new service address with its partner token, as Settings saves them', () => {
  it('the token signs in before the settings are saved: the PIN is still asked for, and nothing but the open verbs answers until then', async () => {
    const sessionId = await firstClinicianVisit();
    const other = await startSandbox({ asr: 'energy' });
    try {
      const service = { kind: 'url', baseUrl: other.url };
      const privacy: { pinNeeded?: boolean }[] = [];
      core!.events.subscribe((event, payload) => {
        if (event === 'privacy.changed') privacy.push(payload as { pinNeeded?: boolean });
      });
      // The address first (the token is asked for), then the token for it, then the page saved whole.
      await callVerb(core!, 'settings.set', { service });
      await callVerb(core!, 'secrets.setPartnerToken', { token: 'sandbox-bearer-partner-token', service });
      await expect
        .poll(async () => (await callVerb<{ signedIn: boolean }>(core!, 'auth.status')).signedIn)
        .toBe(true);
      await callVerb(core!, 'settings.set', { service, providerId: 'dr-first' });
      // Before: the save forgot the sign-in, the window was told no PIN was needed, and History answered.
      expect(await callVerb(core!, 'privacy.status')).toMatchObject({ pinNeeded: true });
      expect(privacy.at(-1)).toMatchObject({ pinNeeded: true });
      for (const [verb, said] of await answers(sessionId, ['unlocked', 'owner']))
        expect(said, verb).toMatch(/^Choose your PIN for this computer first, then /);
    } finally {
      await other.close();
    }
  });
});

describe('the owner of a visit is the service, partner, provider and sign-in model (issue 39, item 4)', () => {
  it('the built-in demo with the real clinician’s provider ID reaches none of their visits, and they none of the demo’s', async () => {
    const sessionId = await firstClinicianVisit();
    // "Not you?", Sign out, Settings → the built-in demo with the same provider ID, Sign in.
    await callVerb(core!, 'auth.signOut');
    await callVerb(core!, 'settings.set', { service: { kind: 'builtin-sandbox' }, providerId: 'dr-first' });
    await callVerb(core!, 'auth.signIn');
    expect(await callVerb(core!, 'auth.status')).toMatchObject({
      signedIn: true,
      demo: true,
      providerId: 'dr-first',
    });
    const owners = await answers(sessionId, ['owner']);
    expect(owners.length).toBeGreaterThan(5);
    for (const [verb, said] of owners)
      expect(said, verb).toBe(`Sign in as dr-first at ${new URL(sandbox.url).host} to open this visit.`);
    const listed = await callVerb<{ entries: HistoryEntry[] }>(core!, 'history.list');
    expect(listed.entries.map((entry) => entry.sessionId)).not.toContain(sessionId);

    // The demo's own visit, and back at the real service as the real clinician: not theirs either.
    await callVerb(core!, 'encounter.start', { kind: 'ambient', encounterId: 'demo1' });
    await callVerb(core!, 'recorder.end');
    const demoVisit = (await callVerb<{ entries: HistoryEntry[] }>(core!, 'history.list')).entries[0]!;
    expect(demoVisit.deliverTo).toMatchObject({ service: 'builtin-sandbox', providerId: 'dr-first' });
    await callVerb(core!, 'auth.signOut');
    await callVerb(core!, 'settings.set', { service: { kind: 'url', baseUrl: sandbox.url } });
    await signInWithTestPin(core!);
    expect(await answer('history.discard', { sessionId: demoVisit.sessionId })).toBe(
      'Sign in as dr-first in the demo to open this visit.',
    );
    const back = await callVerb<{ entries: HistoryEntry[] }>(core!, 'history.list');
    expect(back.entries.map((entry) => entry.sessionId)).toEqual([sessionId]);
  });
});

describe('the events main sends unasked', () => {
  it('declares a gate for every event, and nothing else', () => {
    expect(Object.keys(EVENT_GATES).sort()).toEqual([...EVENT_NAMES].sort());
  });

  it('locked: a note’s progress, History and a visit link go to nobody; unlocked, History and the links are sent as they stand', async () => {
    // dr-first's visit has just ended: its note is being written while the window is locked.
    const sessionId = await firstClinicianVisit();
    await callVerb(core!, 'privacy.lock');
    const sent: EventName[] = [];
    core!.events.subscribe((event) => sent.push(event));
    // The EHR opens a visit link meanwhile: its patient's sex and date of birth.
    core!.openVisitLink('ambient-scribe://visit?encounter_id=gate3&sex=FEMALE');
    // The sandbox writes the note in 1.5 s; its progress and History's change happen meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect(sent.filter((event) => EVENT_GATES[event] === 'unlocked')).toEqual([]);

    await callVerb(core!, 'privacy.unlock', { pin: '2468' });
    expect(sent).toContain('history.changed');
    expect(sent).toContain('visitLinks.changed');
    // The visit's processing ended while locked (no audio: the service skipped it), so its
    // progress was withheld, not missing.
    const results = await callVerb<{ status?: string }>(core!, 'results.get', { sessionId });
    expect(results.status).toBe('skipped');
  });
});
