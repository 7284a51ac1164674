import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/contract';
import { createJsonFileStorage } from '../json-file-storage';
import { silentLogger } from '../ports';
import { createEncounterHistory, HISTORY_LIMIT } from './encounter-history';

async function open(dir: string, seen: HistoryEntry[][] = []) {
  return createEncounterHistory({
    storage: createJsonFileStorage(join(dir, 'history.json'), silentLogger),
    log: silentLogger,
    onChange: (entries) => seen.push(entries),
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
});
