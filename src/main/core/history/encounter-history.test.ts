import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/contract';
import { createJsonFileStorage } from '../json-file-storage';
import { silentLogger } from '../ports';
import { createVisitSeal } from '../sealed/visit-seal';
import { createEncounterHistory, HISTORY_LIMIT } from './encounter-history';

const visitSeal = createVisitSeal(randomBytes(32));

async function open(dir: string, seen: HistoryEntry[][] = []) {
  return createEncounterHistory({
    storage: createJsonFileStorage(join(dir, 'history.json'), silentLogger),
    log: silentLogger,
    onChange: (entries) => seen.push(entries),
    visitSeal: () => visitSeal,
  });
}

const visit = (n: number): HistoryEntry => ({
  encounterId: `visit${n}`,
  sessionId: `s${n}`,
  kind: 'ambient',
  state: 'recording',
  startedAt: 1_000 * n,
});

describe('the visits of this device', () => {
  it('lists the newest first, updates by session id, and survives a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scribe-history-'));
    const seen: HistoryEntry[][] = [];
    const history = await open(dir, seen);
    history.record(visit(1));
    history.record(visit(2));
    history.record({ sessionId: 's1', state: 'done', status: 'completed', endedAt: 5_000 });
    expect(history.list().map((e) => [e.sessionId, e.state])).toEqual([
      ['s2', 'recording'],
      ['s1', 'done'],
    ]);
    expect(seen).toHaveLength(3);
    await history.flush();

    // A visit still "recording" when the app stopped was interrupted: it is not left recording.
    const reopened = await open(dir);
    expect(reopened.list().map((e) => [e.sessionId, e.state])).toEqual([
      ['s2', 'interrupted'],
      ['s1', 'done'],
    ]);
    expect(reopened.find('s1')).toMatchObject({ status: 'completed', endedAt: 5_000 });
  });

  it('keeps ids, states and times only, readable by the owner alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scribe-history-'));
    const history = await open(dir);
    history.record({ ...visit(3), ...{ note: 'Chest pain since yesterday' } } as HistoryEntry);
    history.record({ sessionId: 's3', ...{ transcript: 'It hurts when I climb stairs' } });
    await history.flush();
    const text = await readFile(join(dir, 'history.json'), 'utf8');
    expect(text).not.toMatch(/Chest pain|climb stairs/);
    expect(Object.keys(JSON.parse(text).entries[0]).sort()).toEqual([
      'encounterId',
      'kind',
      'sessionId',
      'startedAt',
      'state',
    ]);
  });

  it('drops the oldest beyond the limit, and ignores an entry it cannot place', async () => {
    const history = await open(await mkdtemp(join(tmpdir(), 'scribe-history-')));
    for (let n = 0; n <= HISTORY_LIMIT; n++) history.record(visit(n));
    expect(history.list()).toHaveLength(HISTORY_LIMIT);
    expect(history.find('s0')).toBeUndefined();
    history.record({ sessionId: 'unknown', state: 'done' });
    expect(history.find('unknown')).toBeUndefined();
  });

  it('believes a visit’s owner and consent from its seal alone: edited, added, swapped or deleted in the file, they count for nothing (issue 39, item 6)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scribe-history-'));
    const owner = {
      service: 'https://scribe.example',
      partnerId: 'p1',
      providerId: 'dr-a',
      model: 'bearer' as const,
    };
    const consent = {
      method: 'verbal' as const,
      wording: 'We record to write the note.',
      at: 1_000,
      providerId: 'dr-a',
    };
    const history = await open(dir);
    for (const n of [1, 2, 3, 4]) {
      const facts = n === 1 ? { deliverTo: owner, consent } : { deliverTo: owner };
      history.record({ ...visit(n), ...facts, sealed: visitSeal.seal(`s${n}`, facts) });
    }
    // An update that says another owner (no seal of its own) changes nothing.
    history.record({ sessionId: 's4', deliverTo: { ...owner, service: 'https://elsewhere.example' } });
    expect(history.find('s4')?.deliverTo).toEqual(owner);
    await history.flush();

    const file = join(dir, 'history.json');
    const stored = JSON.parse(await readFile(file, 'utf8')) as { entries: HistoryEntry[] };
    const edit = (sessionId: string, change: (entry: HistoryEntry) => HistoryEntry) =>
      (stored.entries = stored.entries.map((e) => (e.sessionId === sessionId ? change(e) : e)));
    // s1: sent to another server, its consent changed; s2: a consent added; s3: s1's seal copied
    // over its own; s4: its seal deleted.
    edit('s1', (e) => ({
      ...e,
      deliverTo: { ...owner, service: 'https://evil.example' },
      consent: { ...consent, method: 'written' },
    }));
    edit('s2', (e) => ({ ...e, consent }));
    const sealOfS1 = stored.entries.find((e) => e.sessionId === 's1')!.sealed;
    edit('s3', (e) => ({ ...e, sealed: sealOfS1 }));
    edit('s4', ({ sealed: _gone, ...e }) => e);
    await writeFile(file, JSON.stringify(stored));

    const reopened = await open(dir);
    expect(reopened.find('s1')).toMatchObject({ deliverTo: owner, consent });
    expect(reopened.find('s2')?.deliverTo).toEqual(owner);
    expect(reopened.find('s2')).not.toHaveProperty('consent');
    for (const nobodys of ['s3', 's4']) {
      expect(reopened.find(nobodys), nobodys).not.toHaveProperty('deliverTo');
      expect(reopened.find(nobodys), nobodys).not.toHaveProperty('consent');
    }
    // Sealed with another key (another computer's History, or a key that is gone): nobody's.
    const elsewhere = await createEncounterHistory({
      storage: createJsonFileStorage(file, silentLogger),
      log: silentLogger,
      onChange: () => undefined,
      visitSeal: () => createVisitSeal(randomBytes(32)),
    });
    expect(elsewhere.list().filter((e) => e.deliverTo !== undefined)).toEqual([]);
  });
});
