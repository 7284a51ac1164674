import { describe, expect, it } from 'vitest';
import type { VisitLinks } from '../../../shared/contract/visit-links';
import { createVisitLinkInbox, type VisitLinkInboxDeps } from './visit-link-inbox';

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
    providerRefusal: () => undefined,
    useProvider: async (providerId) => void providers.push(providerId),
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
    const reading = links.open('ambient-scribe://visit?encounter_id=bed%2012&sex=F');
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

  it("signs the link's provider in when the window takes it, not before", async () => {
    const { links, providers } = inbox();
    links.open(`${LINK}&provider_id=dr-ehr`);
    expect(providers).toEqual([]);
    await links.take(links.links().next!.id);
    expect(providers).toEqual(['dr-ehr']);
  });

  it('refuses a provider the policy does not allow, as a problem of the link', () => {
    const { links } = inbox({
      providerRefusal: (id) => (id === 'dr-ehr' ? undefined : 'must be the provider ID your policy sets'),
    });
    expect(links.open(`${LINK}&provider_id=dr-other`)).toEqual({
      ok: false,
      problems: [{ field: 'provider_id', rule: 'must be the provider ID your policy sets' }],
    });
    expect(links.links().next).toBeUndefined();
    expect(links.open(`${LINK}&provider_id=dr-ehr`).ok).toBe(true);
  });

  it('logs which fields came and which rules broke, never a value', () => {
    const { links, lines } = inbox();
    links.open(`${LINK}&provider_id=dr-ehr`);
    links.open(
      'ambient-scribe://visit?encounter_id=bed%2012&patient%20name=Jane%20Doe&date_of_birth=1961-13-01',
    );
    const log = lines.join('\n');
    expect(log).toContain('visit link: opened');
    expect(log).toContain('"linkFields":["encounterId","dateOfBirth","sex","providerId"]');
    expect(log).toContain('visit link: refused');
    expect(log).toContain('an unknown field is not a field of a visit link');
    for (const value of ['ehr4711', '1961-04-09', 'FEMALE', 'dr-ehr', 'bed 12', 'Jane', '1961-13-01'])
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
