import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryTarget } from '../../../shared/delivery-target';
import { createEncounterHistory } from '../history/encounter-history';
import { silentLogger } from '../ports';
import { FakeClock } from '../testing/fake-clock';
import { createNoteDraftStore } from './note-draft-store';
import { createVisitSeal } from '../sealed/visit-seal';
import { createVisitNotes, UNDO_FINISH_MS } from './visit-notes';

const DR_A: DeliveryTarget = {
  service: 'builtin-sandbox',
  partnerId: 'demo-bearer',
  providerId: 'dr-a',
  model: 'bearer',
};
const DRAFT = { sessionId: 's1', sections: { '0:Plan': 'Rest and ice.' }, fields: {} };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scribe-visit-notes-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function visitNotes(owner: () => Promise<DeliveryTarget> = async () => DR_A) {
  const clock = new FakeClock(1_000);
  let stored: unknown;
  const history = await createEncounterHistory({
    storage: { location: 'memory', read: async () => stored, write: async (value) => void (stored = value) },
    log: silentLogger,
    onChange: () => undefined,
    visitSeal: () => createVisitSeal(key),
  });
  history.record({ sessionId: 's1', encounterId: 'e1', kind: 'ambient', state: 'done', startedAt: 0 });
  const store = createNoteDraftStore({
    dir: join(dir, 'notes'),
    spoolKey: async () => key,
    log: silentLogger,
    now: () => clock.now(),
  });
  return { notes: createVisitNotes({ store, history, owner, clock, log: silentLogger }), history, clock };
}
const key = randomBytes(32);

describe('a visit note as the clinician’s work', () => {
  it('finishing deletes the edits from disk at once; Undo within the window brings them back', async () => {
    const { notes, history, clock } = await visitNotes();
    await notes.save(DRAFT);
    await notes.finish('s1');
    expect(readdirSync(join(dir, 'notes'))).toEqual([]);
    expect(history.find('s1')?.finishedAt).toBe(1_000);
    await expect(notes.save(DRAFT)).rejects.toThrow('marked finished');
    clock.advance(UNDO_FINISH_MS - 1);
    await notes.unfinish('s1');
    expect(history.find('s1')?.finishedAt).toBeUndefined();
    expect(await notes.get('s1')).toEqual({ draft: DRAFT });
  });

  it('Undo after the window is refused, and the edits are gone', async () => {
    const { notes, clock } = await visitNotes();
    await notes.save(DRAFT);
    await notes.finish('s1');
    clock.advance(UNDO_FINISH_MS + 1);
    await expect(notes.unfinish('s1')).rejects.toThrow('Too late to undo');
    expect(readdirSync(join(dir, 'notes'))).toEqual([]);
  });

  it('the patient details go with the edits when the visit is finished, come back with Undo, and go when it is discarded', async () => {
    const { notes, clock } = await visitNotes();
    const patient = { dateOfBirth: '1957-03-14', sex: 'FEMALE' as const };
    await notes.keepPatient('s1', patient, DR_A);
    expect(await notes.patient('s1')).toEqual({ patient });
    await notes.finish('s1');
    expect(readdirSync(join(dir, 'notes'))).toEqual([]);
    expect(await notes.patient('s1')).toEqual({});
    clock.advance(UNDO_FINISH_MS - 1);
    await notes.unfinish('s1');
    expect(await notes.patient('s1')).toEqual({ patient });
    notes.forget('s1');
    expect(readdirSync(join(dir, 'notes'))).toEqual([]);
  });

  it('keeping the patient details never fails the visit (a keychain that does not answer)', async () => {
    const { notes } = await visitNotes();
    const failing = createVisitNotes({
      store: {
        ...createNoteDraftStore({
          dir: join(dir, 'notes'),
          spoolKey: async () => key,
          log: silentLogger,
          now: Date.now,
        }),
        keepPatient: async () => {
          throw new Error('keychain locked');
        },
      },
      history: (await visitNotes()).history,
      owner: async () => DR_A,
      clock: new FakeClock(0),
      log: silentLogger,
    });
    await expect(failing.keepPatient('s1', { sex: 'MALE' }, DR_A)).resolves.toBeUndefined();
    expect(await notes.patient('s1')).toEqual({});
  });

  it('nobody signed in (or locked): nothing is read or kept', async () => {
    const { notes } = await visitNotes(async () => {
      throw new Error('Sign in to see and keep your edits of this note.');
    });
    await expect(notes.get('s1')).rejects.toThrow('Sign in');
    await expect(notes.save(DRAFT)).rejects.toThrow('Sign in');
    await expect(notes.patient('s1')).rejects.toThrow('Sign in');
  });

  it('a visit this app does not know is refused by name', async () => {
    const { notes } = await visitNotes();
    await expect(notes.save({ ...DRAFT, sessionId: 'other' })).rejects.toThrow(
      'no visit with that recording',
    );
  });
});
