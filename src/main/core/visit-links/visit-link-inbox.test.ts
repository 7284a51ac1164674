import { beforeEach, describe, expect, it } from 'vitest';
import type { VisitLinks } from '../../../shared/contract/visit-links';
import { checkLinkProvider, type LinkProviderFacts } from './link-provider';
import { createVisitLinkInbox, type VisitLinkInboxDeps } from './visit-link-inbox';

/** A bearer partner signed in as dr-own, links not allowed to switch (each test may change it). */
let facts: LinkProviderFacts;
beforeEach(() => {
  facts = {
    authModel: 'bearer',
    actingProvider: 'dr-own',
    signedInProvider: undefined,
    providerLocked: false,
    switchAllowed: false,
  };
});

function inbox(overrides: Partial<VisitLinkInboxDeps> = {}) {
  const lines: string[] = [];
  const changes: VisitLinks[] = [];
  const providers: string[] = [];
  let recording = false;
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  const links = createVisitLinkInbox({
    today: () => '2026-11-24',
    log: { info: log('info'), warn: log('warn'), error: log('error') },
    onChange: (state) => changes.push(state),
    recording: () => recording,
    checkProvider: (providerId: string) => checkLinkProvider(providerId, facts),
    switchProvider: async (providerId: string) => void providers.push(providerId),
    ...overrides,
  });
  return { links, lines, changes, providers, setRecording: (value: boolean) => (recording = value) };
}

const LINK = 'ambient-scribe://visit?encounter_id=ehr4711&date_of_birth=1961-04-09&sex=FEMALE';

describe('the visit link inbox', () => {
  it('keeps the newest good link as the next visit until the window takes it, then lets go', async () => {
    const { links, changes } = inbox();
    links.open('ambient-scribe://visit?encounter_id=older');
    links.open(LINK);
    const next = links.links().next!;
    expect(next.link).toEqual({ encounterId: 'ehr4711', dateOfBirth: '1961-04-09', sex: 'FEMALE' });
    expect(changes).toHaveLength(2);
    // An id already replaced takes nothing (the window saw the older link a moment ago).
    expect(await links.take(next.id - 1)).toEqual({});
    expect(await links.take(next.id)).toEqual({ link: next.link });
    expect(links.links()).toEqual({});
    expect(await links.take(next.id)).toEqual({});
  });

  it('keeps a bad link apart with its problems: a good one waiting stays, nothing of the bad one is filled', async () => {
    const { links } = inbox();
    links.open(LINK);
    const reading = links.open('ambient-scribe://visit?encounter_id=%23-%2F&sex=F');
    expect(reading.ok).toBe(false);
    const { next, refused } = links.links();
    expect(next?.link.encounterId).toBe('ehr4711');
    expect(refused?.problems.map((p) => p.field)).toEqual(['encounter_id', 'sex']);
    // Read: gone; the good one is still the next visit.
    expect(await links.take(refused!.id)).toEqual({});
    expect(links.links()).toEqual({ next });
  });

  it('never gives a link to the window while a visit records; once it ended, it does', async () => {
    const { links, lines, setRecording } = inbox();
    setRecording(true);
    links.open(LINK);
    const id = links.links().next!.id;
    await expect(links.take(id)).rejects.toThrow('A visit is being recorded');
    expect(links.links().next?.id).toBe(id);
    expect(lines.join('\n')).toContain('"whileRecording":true');
    setRecording(false);
    expect((await links.take(id)).link?.encounterId).toBe('ehr4711');
  });

  it('a link for the provider signed in is used; one for another is refused in one sentence, nothing changed', async () => {
    const { links, providers } = inbox();
    links.open(`${LINK}&provider_id=dr-own`);
    expect((await links.take(links.links().next!.id)).link?.providerId).toBe('dr-own');
    const reading = links.open(`${LINK}&provider_id=dr-mallory`);
    expect(reading).toEqual({
      ok: false,
      problems: [{ field: 'provider_id', rule: 'is for dr-mallory, but you are signed in as dr-own' }],
    });
    expect(links.links()).toEqual({
      refused: {
        id: expect.any(Number),
        problems: reading.ok ? [] : reading.problems,
        reason: 'This link is for dr-mallory; you are signed in as dr-own. Nothing was changed.',
      },
    });
    expect(providers).toEqual([]);
  });

  it('a policy that locks the provider refuses a link for another, even where links may switch', () => {
    facts = { ...facts, providerLocked: true, switchAllowed: true };
    const { links } = inbox();
    const reading = links.open(`${LINK}&provider_id=dr-other`);
    expect(reading.ok).toBe(false);
    expect(links.links().refused?.reason).toBe(
      'This link is for dr-other; your organisation signs this computer in as dr-own. Nothing was changed.',
    );
  });

  it('where the policy lets links switch, nothing changes until the clinician confirms; declining fills nothing', async () => {
    facts = { ...facts, switchAllowed: true };
    const { links, providers } = inbox();
    links.open(`${LINK}&provider_id=dr-locum`);
    const next = links.links().next!;
    expect(next.providerSwitch).toEqual({ from: 'dr-own', to: 'dr-locum' });
    await expect(links.take(next.id)).rejects.toThrow('confirm in the window to sign in as dr-locum');
    expect(providers).toEqual([]);
    expect(links.links().next?.id).toBe(next.id);
    expect((await links.take(next.id, { switchProvider: true })).link?.encounterId).toBe('ehr4711');
    expect(providers).toEqual(['dr-locum']);

    links.open(`${LINK}&provider_id=dr-third`);
    links.decline(links.links().next!.id);
    expect(links.links()).toEqual({});
    expect(providers).toEqual(['dr-locum']);
  });

  it('judges the provider again when the window takes the link: a sign-out meanwhile refuses it', async () => {
    const { links } = inbox();
    links.open(`${LINK}&provider_id=dr-own`);
    const id = links.links().next!.id;
    facts = { ...facts, actingProvider: 'dr-next' };
    await expect(links.take(id)).rejects.toThrow('This link is for dr-own; you are signed in as dr-next.');
    expect(links.links().next).toBeUndefined();
    expect(links.links().refused?.reason).toContain('This link is for dr-own');
  });

  it('a standard partner: checked against who signed in at the identity provider, and used when nobody has yet', async () => {
    facts = { ...facts, authModel: 'standard', actingProvider: '', signedInProvider: undefined };
    const { links } = inbox();
    expect(links.open(`${LINK}&provider_id=jdoe`).ok).toBe(true);
    facts = { ...facts, signedInProvider: 'jdoe' };
    expect(links.open(`${LINK}&provider_id=jdoe`).ok).toBe(true);
    facts = { ...facts, signedInProvider: 'asmith' };
    expect(links.open(`${LINK}&provider_id=jdoe`).ok).toBe(false);
    expect(links.links().refused?.reason).toBe(
      'This link is for jdoe; you are signed in as asmith. Nothing was changed.',
    );
  });

  it('logs which fields came and which rules broke, never a value', () => {
    const { links, lines } = inbox();
    links.open(`${LINK}&provider_id=dr-own`);
    links.open(`${LINK}&provider_id=dr-mallory`);
    links.open(
      'ambient-scribe://visit?encounter_id=bed%2012&patient%20name=Jane%20Doe&date_of_birth=1961-13-01',
    );
    const log = lines.join('\n');
    expect(log).toContain('visit link: opened');
    expect(log).toContain('"linkFields":["encounterId","dateOfBirth","sex","providerId"]');
    expect(log).toContain('visit link: refused');
    expect(log).toContain('an unknown field is not a field of a visit link');
    expect(log).toContain('provider_id is not the provider this app acts as');
    for (const value of [
      'ehr4711',
      '1961-04-09',
      'FEMALE',
      'dr-own',
      'dr-mallory',
      'bed 12',
      'Jane',
      '1961-13-01',
    ])
      expect(log).not.toContain(value);
  });

  it('forgets every link at sign-out', () => {
    const { links, changes } = inbox();
    links.open(LINK);
    links.open('ambient-scribe://visit?sex=F');
    links.clear();
    expect(links.links()).toEqual({});
    expect(changes.at(-1)).toEqual({});
  });
});
