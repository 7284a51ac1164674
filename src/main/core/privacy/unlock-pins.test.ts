import { describe, expect, it } from 'vitest';
import { captureLog } from '../auth/testing/test-ports';
import { createMemorySecretBox } from '../secrets/secret-box';
import { createUnlockPins, MAX_PIN_TRIES } from './unlock-pins';

const here = { service: 'https://scribe.example.org', partnerId: 'acme', providerId: 'dr-x' };

describe('unlock PINs', () => {
  it('keeps a salted scrypt hash, never the PIN, and two clinicians with one PIN share no hash', async () => {
    const secrets = createMemorySecretBox();
    const pins = createUnlockPins({ secrets, log: captureLog() });
    await pins.set(here, '246810');
    await pins.set({ ...here, providerId: 'dr-y' }, '246810');
    const kept = (await secrets.get('unlock-pins'))!;
    expect(kept).not.toContain('246810');
    const records = Object.values(
      JSON.parse(kept) as Record<string, { hash: string; salt: string; N: number }>,
    );
    expect(records).toHaveLength(2);
    expect(records[0]!.hash).not.toBe(records[1]!.hash);
    expect(records[0]!.N).toBeGreaterThanOrEqual(2 ** 15);
    expect(await pins.check(here, '246810')).toEqual({ ok: true });
  });

  it('counts wrong tries across racing checks, and blocks at the limit', async () => {
    const pins = createUnlockPins({ secrets: createMemorySecretBox(), log: captureLog() });
    await pins.set(here, '1234');
    const results = await Promise.all(Array.from({ length: MAX_PIN_TRIES }, () => pins.check(here, '9999')));
    expect(results.map((r) => (r.ok ? -1 : r.triesLeft)).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(await pins.state(here)).toEqual({ kind: 'blocked' });
    // Blocked: even the right PIN opens nothing.
    expect(await pins.check(here, '1234')).toEqual({ ok: false, triesLeft: 0 });
    expect(await pins.clearBlocked('https://other.example.org', 'acme')).toBe(0);
    expect(await pins.clearBlocked(here.service, here.partnerId)).toBe(1);
    expect(await pins.state(here)).toEqual({ kind: 'none' });
  });

  it('an unreadable store blocks every PIN (fails closed) until the partner token clears it', async () => {
    const secrets = createMemorySecretBox();
    await secrets.set('unlock-pins', '{ not json');
    const log = captureLog();
    const pins = createUnlockPins({ secrets, log });
    expect(await pins.state(here)).toEqual({ kind: 'blocked' });
    expect(await pins.check(here, '1234')).toEqual({ ok: false, triesLeft: 0 });
    await expect(pins.set(here, '1234')).rejects.toThrow('The stored PINs cannot be read');
    expect(log.lines.map((line) => line.message)).toContain(
      'privacy: the stored PINs could not be read; nobody unlocks with one until IT acts',
    );
    await pins.clearBlocked(here.service, here.partnerId);
    expect(await pins.state(here)).toEqual({ kind: 'none' });
  });

  it('a store that cannot be written still spends each wrong try, and blocks at the limit', async () => {
    const inner = createMemorySecretBox();
    const pins = createUnlockPins({
      secrets: {
        ...inner,
        get: (name) => inner.get(name),
        delete: (name) => inner.delete(name),
        set: async (name, value) => {
          if (readOnly) throw new Error('EROFS');
          await inner.set(name, value);
        },
      },
      log: captureLog(),
    });
    let readOnly = false;
    await pins.set(here, '1234');
    readOnly = true;
    for (let left = MAX_PIN_TRIES - 1; left >= 0; left -= 1)
      expect(await pins.check(here, '9999')).toEqual({ ok: false, triesLeft: left });
    expect(await pins.state(here)).toEqual({ kind: 'blocked' });
    expect(await pins.check(here, '1234')).toEqual({ ok: false, triesLeft: 0 });
  });
});
