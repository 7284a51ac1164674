import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeliveryTarget } from '../../../shared/delivery-target';
import { silentLogger } from '../ports';
import {
  createNoteDraftStore,
  DRAFT_KEY_UNAVAILABLE_NOTICE,
  DRAFT_UNREADABLE_NOTICE,
} from './note-draft-store';

const OWNER: DeliveryTarget = {
  service: 'https://scribe.example.org',
  partnerId: 'clinic7',
  providerId: 'dr-a',
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
