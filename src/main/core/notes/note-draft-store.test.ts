import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryTarget } from '../../../shared/delivery-target';
import { silentLogger } from '../ports';
import {
  createNoteDraftStore,
  DRAFT_KEY_UNAVAILABLE_NOTICE,
  DRAFT_UNREADABLE_NOTICE,
  ANOTHER_OWNERS_NOTE,
} from './note-draft-store';

const OWNER: DeliveryTarget = {
  service: 'https://scribe.example.org',
  partnerId: 'clinic7',
  providerId: 'dr-a',
  model: 'bearer',
};
const OTHER: DeliveryTarget = { ...OWNER, providerId: 'dr-b' };
const DRAFT = {
  sessionId: 'session-1',
  sections: { '2:Assessment': 'Left knee effusion.\nNo fracture on exam.' },
  fields: { 'vitals/bp': { value: '122/78', unit: 'mmHg' } },
};

let dir: string;
let key: Uint8Array;
beforeEach(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'scribe-notes-')), 'notes');
  key = randomBytes(32);
});
afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

const store = (overrides: Partial<Parameters<typeof createNoteDraftStore>[0]> = {}) =>
  createNoteDraftStore({ dir, spoolKey: async () => key, log: silentLogger, now: Date.now, ...overrides });

describe('the sealed note drafts', () => {
  it('keeps the edits sealed: read back whole, and no edited word in any file', async () => {
    await store().write(DRAFT, OWNER);
    expect(await store().read('session-1', OWNER)).toEqual({ draft: DRAFT });
    const files = readdirSync(dir);
    expect(files).toEqual(['session-1.note']);
    const bytes = readFileSync(join(dir, files[0]!));
    for (const word of ['effusion', 'fracture', '122/78', 'mmHg', 'dr-a', 'Assessment'])
      expect(bytes.includes(Buffer.from(word)), word).toBe(false);
    expect(statSync(join(dir, files[0]!)).mode & 0o777).toBe(0o600);
  });

  it('writes atomically: a second write replaces the first whole, with no temporary file left', async () => {
    await store().write(DRAFT, OWNER);
    await store().write({ ...DRAFT, sections: { '2:Assessment': 'Replaced.' } }, OWNER);
    expect(readdirSync(dir)).toEqual(['session-1.note']);
    expect((await store().read('session-1', OWNER)).draft?.sections).toEqual({ '2:Assessment': 'Replaced.' });
  });

  it("another provider's edits are not there for them", async () => {
    await store().write(DRAFT, OWNER);
    expect(await store().read('session-1', OTHER)).toEqual({});
    expect(await store().read('session-1', OWNER)).toEqual({ draft: DRAFT });
  });

  it('the same provider ID in the demo, or under another sign-in model, is another owner (issue 39, item 4)', async () => {
    await store().write(DRAFT, OWNER);
    const demo: DeliveryTarget = { ...OWNER, service: 'builtin-sandbox' };
    const otherModel: DeliveryTarget = { ...OWNER, model: 'single_auth_token' };
    const { model: _none, ...beforeModels } = OWNER;
    for (const who of [demo, otherModel, beforeModels])
      expect(await store().read('session-1', who), JSON.stringify(who)).toEqual({});
    // A save by any of them is refused and leaves the owner's edits as they were.
    await expect(
      store().write({ ...DRAFT, sections: { '2:Assessment': 'overwritten' } }, demo),
    ).rejects.toThrow(ANOTHER_OWNERS_NOTE);
    await expect(store().keepPatient('session-1', { sex: 'MALE' }, otherModel)).rejects.toThrow(
      ANOTHER_OWNERS_NOTE,
    );
    expect(await store().read('session-1', OWNER)).toEqual({ draft: DRAFT });
  });

  it('a damaged file is set aside with a notice, never a crash; the next read finds nothing', async () => {
    await store().write(DRAFT, OWNER);
    const file = join(dir, 'session-1.note');
    const bytes = readFileSync(file);
    bytes[bytes.length - 3]! ^= 0xff;
    writeFileSync(file, bytes);
    expect(await store().read('session-1', OWNER)).toEqual({ notice: DRAFT_UNREADABLE_NOTICE });
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^session-1\.note\.unreadable-\d+$/)]);
    expect(await store().read('session-1', OWNER)).toEqual({});
  });

  it('a key that is gone (the keychain reset) drops the edits with a notice; one that does not answer keeps them', async () => {
    await store().write(DRAFT, OWNER);
    expect(
      await store({
        spoolKey: async () => {
          throw new Error('keychain locked');
        },
      }).read('session-1', OWNER),
    ).toEqual({ notice: DRAFT_KEY_UNAVAILABLE_NOTICE });
    expect(readdirSync(dir)).toEqual(['session-1.note']);
    key = randomBytes(32);
    expect(await store().read('session-1', OWNER)).toEqual({ notice: DRAFT_UNREADABLE_NOTICE });
  });

  it('a file copied under another visit’s name does not open as that visit', async () => {
    await store().write(DRAFT, OWNER);
    writeFileSync(join(dir, 'session-2.note'), readFileSync(join(dir, 'session-1.note')));
    expect(await store().read('session-2', OWNER)).toEqual({ notice: DRAFT_UNREADABLE_NOTICE });
  });

  it('values marked Checked alone are kept, sealed like the edits (issue 38)', async () => {
    const checkedOnly = {
      sessionId: 'session-1',
      sections: {},
      fields: {},
      checked: { '2:Assessment': ['dose|1000 mg|0'] },
    };
    await store().write(checkedOnly, OWNER);
    expect(await store().read('session-1', OWNER)).toEqual({ draft: checkedOnly });
    const bytes = readFileSync(join(dir, 'session-1.note'));
    for (const word of ['1000 mg', 'Assessment']) expect(bytes.includes(Buffer.from(word)), word).toBe(false);
    // Nothing marked any more: nothing to keep.
    await store().write({ ...checkedOnly, checked: { '2:Assessment': [] } }, OWNER);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('no edit left: the file goes; remove and sweep delete them; a session id cannot leave the folder', async () => {
    await store().write(DRAFT, OWNER);
    await store().write({ ...DRAFT, sections: {}, fields: {} }, OWNER);
    expect(readdirSync(dir)).toEqual([]);
    await store().write(DRAFT, OWNER);
    store().remove('session-1');
    expect(readdirSync(dir)).toEqual([]);
    await store().write(DRAFT, OWNER);
    await store().write({ ...DRAFT, sessionId: 'session-2' }, OWNER);
    const old = new Date(Date.now() - 8 * 24 * 3_600_000);
    utimesSync(join(dir, 'session-1.note'), old, old);
    expect(store().sweep(7 * 24 * 3_600_000)).toEqual(['session-1']);
    expect(readdirSync(dir)).toEqual(['session-2.note']);
    await expect(store().write({ ...DRAFT, sessionId: '../escape' }, OWNER)).rejects.toThrow();
  });
});

describe('the patient details kept with the unfinished note (issue 31)', () => {
  const PATIENT = { dateOfBirth: '1957-03-14', sex: 'FEMALE' as const };

  it('are sealed: read back by the provider who recorded the visit, by nobody else, and never in the clear', async () => {
    await store().keepPatient('session-1', PATIENT, OWNER);
    expect(await store().readPatient('session-1', OWNER)).toEqual(PATIENT);
    expect(await store().readPatient('session-1', OTHER)).toBeUndefined();
    const bytes = readFileSync(join(dir, 'session-1.note'));
    for (const word of ['1957', '03-14', 'FEMALE', 'dateOfBirth', 'dr-a'])
      expect(bytes.includes(Buffer.from(word)), word).toBe(false);
    expect(statSync(join(dir, 'session-1.note')).mode & 0o777).toBe(0o600);
    // No edits yet: the note has none to show.
    expect(await store().read('session-1', OWNER)).toEqual({});
  });

  it('kept at Start without waiting: a read meanwhile waits for the write', async () => {
    const one = store();
    void one.keepPatient('session-1', PATIENT, OWNER);
    expect(await one.readPatient('session-1', OWNER)).toEqual(PATIENT);
  });

  it('share the visit’s one file with the edits, each kept when the other is written, even at the same moment', async () => {
    const one = store();
    await Promise.all([one.keepPatient('session-1', PATIENT, OWNER), one.write(DRAFT, OWNER)]);
    expect(readdirSync(dir)).toEqual(['session-1.note']);
    expect(await store().readPatient('session-1', OWNER)).toEqual(PATIENT);
    expect(await store().read('session-1', OWNER)).toEqual({ draft: DRAFT });
    // Undo my edits everywhere: the edits go, the patient line stays.
    await one.write({ ...DRAFT, sections: {}, fields: {} }, OWNER);
    expect(await store().read('session-1', OWNER)).toEqual({});
    expect(await store().readPatient('session-1', OWNER)).toEqual(PATIENT);
  });

  it('nothing given, nothing kept; a visit finished, discarded or past the retention keeps nothing', async () => {
    await store().keepPatient('session-1', {}, OWNER);
    expect(existsSync(dir)).toBe(false);
    await store().keepPatient('session-1', PATIENT, OWNER);
    store().remove('session-1');
    expect(readdirSync(dir)).toEqual([]);
    // Removed while it was being written (Start, then an instant Cancel): still nothing.
    const one = store();
    const writing = one.keepPatient('session-2', PATIENT, OWNER);
    one.remove('session-2');
    await writing;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(readdirSync(dir)).toEqual([]);
    await store().keepPatient('session-3', PATIENT, OWNER);
    const old = new Date(Date.now() - 8 * 24 * 3_600_000);
    utimesSync(join(dir, 'session-3.note'), old, old);
    expect(store().sweep(7 * 24 * 3_600_000)).toEqual(['session-3']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a file that cannot be opened leaves the line out, and is set aside only by reading the edits (with its notice)', async () => {
    await store().keepPatient('session-1', PATIENT, OWNER);
    key = randomBytes(32);
    expect(await store().readPatient('session-1', OWNER)).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['session-1.note']);
    expect(await store().read('session-1', OWNER)).toEqual({ notice: DRAFT_UNREADABLE_NOTICE });
    await expect(store().readPatient('../escape', OWNER)).rejects.toThrow();
  });
});
