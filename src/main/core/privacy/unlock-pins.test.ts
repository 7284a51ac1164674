import { describe, expect, it } from 'vitest';
import { captureLog } from '../auth/testing/test-ports';
import { createMemorySecretBox } from '../secrets/secret-box';
import { pinGenerationInMemory } from './pin-generation';
import { createUnlockPins, MAX_PIN_TRIES } from './unlock-pins';

const here = { service: 'https://scribe.example.org', partnerId: 'acme', providerId: 'dr-x' };

describe('unlock PINs', () => {
  it('keeps a salted scrypt hash, never the PIN, and two clinicians with one PIN share no hash', async () => {
    const secrets = createMemorySecretBox();
    const pins = createUnlockPins({ secrets, generation: pinGenerationInMemory(), log: captureLog() });
    await pins.set(here, '246810');
    await pins.set({ ...here, providerId: 'dr-y' }, '246810');
    const kept = (await secrets.get('unlock-pins'))!;
    expect(kept).not.toContain('246810');
    const records = Object.values(
      (JSON.parse(kept) as { records: Record<string, { hash: string; salt: string; N: number }> }).records,
    );
    expect(records).toHaveLength(2);
    expect(records[0]!.hash).not.toBe(records[1]!.hash);
    expect(records[0]!.N).toBeGreaterThanOrEqual(2 ** 15);
    expect(await pins.check(here, '246810')).toEqual({ ok: true });
  });

  it('slows wrong tries down before it blocks: after the third a wait of 30 s, doubling; the tenth blocks', async () => {
    let clock = 1_000_000;
    const pins = createUnlockPins({
      secrets: createMemorySecretBox(),
      generation: pinGenerationInMemory(),
      log: captureLog(),
      now: () => clock,
    });
    await pins.set(here, '1234');
    expect(await pins.check(here, '9999')).toEqual({ ok: false, triesLeft: 9 });
    expect(await pins.check(here, '9999')).toEqual({ ok: false, triesLeft: 8 });
    expect(await pins.check(here, '9999')).toEqual({ ok: false, triesLeft: 7, waitUntil: clock + 30_000 });
    expect(await pins.state(here)).toEqual({ kind: 'set', triesLeft: 7, waitUntil: clock + 30_000 });
    // During the wait nothing is checked, the right PIN neither, and no try is spent.
    clock += 29_999;
    expect(await pins.check(here, '1234')).toEqual({
      ok: false,
      triesLeft: 7,
      waitUntil: clock + 1,
      waiting: true,
    });
    const waits: number[] = [];
    for (let left = 6; left >= 1; left -= 1) {
      const state = await pins.state(here);
      clock = state.kind === 'set' && state.waitUntil ? state.waitUntil : clock;
      const check = await pins.check(here, '9999');
      expect(check).toMatchObject({ ok: false, triesLeft: left });
      if (!check.ok && check.waitUntil) waits.push((check.waitUntil - clock) / 1_000);
    }
    expect(waits).toEqual([60, 120, 240, 480, 960, 1_920]);
    clock += 1_920_000;
    expect(await pins.check(here, '9999')).toEqual({ ok: false, triesLeft: 0 });
    expect(await pins.state(here)).toEqual({ kind: 'blocked' });
    // Blocked: even the right PIN opens nothing, whenever it is tried.
    clock += 24 * 3_600_000;
    expect(await pins.check(here, '1234')).toEqual({ ok: false, triesLeft: 0 });
    expect(await pins.clearBlocked('https://other.example.org', 'acme')).toBe(0);
    expect(await pins.clearBlocked(here.service, here.partnerId)).toBe(1);
    expect(await pins.state(here)).toEqual({ kind: 'none' });
  });

  it('a right PIN before the third wrong one resets the count; racing checks each count or wait', async () => {
    const clock = 5_000;
    const pins = createUnlockPins({
      secrets: createMemorySecretBox(),
      generation: pinGenerationInMemory(),
      log: captureLog(),
      now: () => clock,
    });
    await pins.set(here, '1234');
    await pins.check(here, '9999');
    await pins.check(here, '9999');
    expect(await pins.check(here, '1234')).toEqual({ ok: true });
    expect(await pins.state(here)).toEqual({ kind: 'set', triesLeft: MAX_PIN_TRIES });
    const results = await Promise.all(Array.from({ length: 5 }, () => pins.check(here, '9999')));
    expect(results).toEqual([
      { ok: false, triesLeft: 9 },
      { ok: false, triesLeft: 8 },
      { ok: false, triesLeft: 7, waitUntil: 35_000 },
      { ok: false, triesLeft: 7, waitUntil: 35_000, waiting: true },
      { ok: false, triesLeft: 7, waitUntil: 35_000, waiting: true },
    ]);
  });

  it('an unreadable store blocks every PIN (fails closed) until the partner token clears it', async () => {
    const secrets = createMemorySecretBox();
    await secrets.set('unlock-pins', '{ not json');
    const log = captureLog();
    const pins = createUnlockPins({ secrets, generation: pinGenerationInMemory(), log });
    expect(await pins.state(here)).toEqual({ kind: 'blocked', reason: 'changed' });
    expect(await pins.check(here, '1234')).toEqual({ ok: false, triesLeft: 0 });
    await expect(pins.set(here, '1234')).rejects.toThrow('The stored PINs cannot be read');
    expect(log.lines.map((line) => line.message)).toContain(
      'privacy: the stored PINs could not be read; nobody unlocks with one until IT acts',
    );
    await pins.clearBlocked(here.service, here.partnerId);
    expect(await pins.state(here)).toEqual({ kind: 'none' });
  });

  /** A secret box whose writes fail while `readOnly.now` (a read-only or full secrets file). */
  const readOnlyBox = () => {
    const inner = createMemorySecretBox();
    const readOnly = { now: false };
    return {
      readOnly,
      secrets: {
        ...inner,
        get: (name: string) => inner.get(name),
        delete: (name: string) => inner.delete(name),
        set: async (name: string, value: string) => {
          if (readOnly.now) throw new Error('EROFS');
          await inner.set(name, value);
        },
      },
    };
  };

  it('a wrong try the store cannot keep blocks every PIN in it, this run and after a restart, until the partner token (issue 39, item 2)', async () => {
    const box = readOnlyBox();
    const generation = pinGenerationInMemory();
    const log = captureLog();
    const pins = createUnlockPins({ generation, secrets: box.secrets, log });
    await pins.set(here, '1234');
    await pins.set({ ...here, providerId: 'dr-y' }, '5678');
    box.readOnly.now = true;
    expect(await pins.check(here, '9999')).toEqual({ ok: false, triesLeft: 0 });
    expect(await pins.state(here)).toEqual({ kind: 'blocked', reason: 'changed' });
    expect(await pins.check(here, '1234')).toEqual({ ok: false, triesLeft: 0 });
    expect(log.lines.map((line) => line.message)).toContain(
      'privacy: a wrong PIN could not be counted in the store; the store now counts as changed',
    );
    // A restart with the same files gives nothing back: the store is older than the last written.
    const restarted = createUnlockPins({ generation, secrets: box.secrets, log: captureLog() });
    expect(await restarted.state(here)).toEqual({ kind: 'blocked', reason: 'changed' });
    expect(await restarted.state({ ...here, providerId: 'dr-y' })).toEqual({
      kind: 'blocked',
      reason: 'changed',
    });
    expect(await restarted.check(here, '1234')).toEqual({ ok: false, triesLeft: 0 });
    // IT's partner token, once the file can be written again: every clinician chooses a PIN again.
    box.readOnly.now = false;
    await restarted.clearBlocked(here.service, here.partnerId);
    expect(await restarted.state(here)).toEqual({ kind: 'none' });
  });

  it('where neither the store nor its number can be written, a wrong try blocks the PIN for this run', async () => {
    const box = readOnlyBox();
    const inner = pinGenerationInMemory();
    let generationReadOnly = false;
    const generation = {
      read: () => inner.read(),
      write: async (value: number) => {
        if (generationReadOnly) throw new Error('ENOSPC');
        await inner.write(value);
      },
    };
    const pins = createUnlockPins({ generation, secrets: box.secrets, log: captureLog() });
    await pins.set(here, '1234');
    box.readOnly.now = true;
    generationReadOnly = true;
    expect(await pins.check(here, '9999')).toEqual({ ok: false, triesLeft: 0 });
    expect(await pins.state(here)).toEqual({ kind: 'blocked' });
    expect(await pins.check(here, '1234')).toEqual({ ok: false, triesLeft: 0 });
  });

  it('an older copy of the store (restored), or the store gone since, blocks every PIN in it until the partner token is entered again (issue 39, item 2)', async () => {
    const secrets = createMemorySecretBox();
    const generation = pinGenerationInMemory();
    const log = captureLog();
    const pins = createUnlockPins({ secrets, generation, log });
    await pins.set(here, '1234');
    const copy = (await secrets.get('unlock-pins'))!;
    for (let n = 0; n < 3; n++) await pins.check(here, '9999');
    expect(await pins.state(here)).toMatchObject({ kind: 'set', triesLeft: 7 });

    // The copy from before the wrong tries, put back: before, they were given back (and the wait).
    await secrets.set('unlock-pins', copy);
    expect(await pins.state(here)).toEqual({ kind: 'blocked', reason: 'changed' });
    expect(await pins.check(here, '1234')).toEqual({ ok: false, triesLeft: 0 });
    await expect(pins.set(here, '2468')).rejects.toThrow(
      'The PINs on this computer were changed outside the app: ask your IT admin to enter the partner token again.',
    );
    expect(log.lines.map((line) => line.message)).toContain(
      'privacy: the PIN store is not the last one written; nobody unlocks with a PIN until IT acts',
    );
    // Deleted instead: the same.
    await secrets.delete('unlock-pins');
    expect(await pins.state(here)).toEqual({ kind: 'blocked', reason: 'changed' });

    // IT enters the partner token: the store starts again, past both, and a new PIN can be chosen.
    await pins.clearBlocked(here.service, here.partnerId);
    expect(await pins.state(here)).toEqual({ kind: 'none' });
    await pins.set(here, '2468');
    expect(await pins.check(here, '2468')).toEqual({ ok: true });
  });

  it('a store written before the generation is read as it is, and carries one from its next write', async () => {
    const secrets = createMemorySecretBox();
    const generation = pinGenerationInMemory();
    const before = createUnlockPins({ secrets, generation: pinGenerationInMemory(), log: captureLog() });
    await before.set(here, '1234');
    const { records } = JSON.parse((await secrets.get('unlock-pins'))!) as { records: unknown };
    await secrets.set('unlock-pins', JSON.stringify(records));
    const pins = createUnlockPins({ secrets, generation, log: captureLog() });
    expect(await pins.check(here, '1234')).toEqual({ ok: true });
    await pins.check(here, '9999');
    expect(generation.value).toBe(1);
    expect(JSON.parse((await secrets.get('unlock-pins'))!)).toMatchObject({ generation: 1 });
  });

  it('the generation kept outside deleted, or unreadable, blocks the PINs the same way', async () => {
    const secrets = createMemorySecretBox();
    const generation = pinGenerationInMemory();
    const pins = createUnlockPins({ secrets, generation, log: captureLog() });
    await pins.set(here, '1234');
    // Deleted (the store still has its number): an older store could be put back with it gone.
    const deleted = createUnlockPins({ secrets, generation: pinGenerationInMemory(), log: captureLog() });
    expect(await deleted.state(here)).toEqual({ kind: 'blocked', reason: 'changed' });
    // Damaged, or sealed with a key that is gone.
    const unreadable = createUnlockPins({
      secrets,
      generation: {
        read: () => Promise.reject(new Error('not sealed by this app')),
        write: (n) => generation.write(n),
      },
      log: captureLog(),
    });
    expect(await unreadable.state(here)).toEqual({ kind: 'blocked', reason: 'changed' });
    // IT enters the partner token: a new store, and a generation that reads again.
    await unreadable.clearBlocked(here.service, here.partnerId);
    expect(await pins.state(here)).toEqual({ kind: 'none' });
  });

  it('a generation that cannot be read over a store with no PIN (no keyring: the key and the store went with the run) blocks nothing', async () => {
    const pins = createUnlockPins({
      secrets: createMemorySecretBox(),
      generation: { read: () => Promise.reject(new Error('another key')), write: async () => undefined },
      log: captureLog(),
    });
    expect(await pins.state(here)).toEqual({ kind: 'none' });
    await pins.set(here, '1234');
  });
});
