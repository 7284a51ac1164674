import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMemorySecretBox, type SecretBox } from '../secrets/secret-box';
import { SPOOL_KEY_NAME, loadSpoolKey } from './spool-key';

/** A memory box that also says what was written to it. */
function recordingBox(initial: Record<string, string> = {}) {
  const box = createMemorySecretBox();
  const writes: string[] = [];
  const recording: SecretBox & { writes: string[] } = {
    persistence: box.persistence,
    writes,
    get: (name) => box.get(name),
    async set(name, value) {
      writes.push(name);
      await box.set(name, value);
    },
    delete: (name) => box.delete(name),
  };
  return Promise.all(Object.entries(initial).map(([name, value]) => box.set(name, value))).then(
    () => recording,
  );
}

const at = () => 1_700_000_000_000;

describe('the spool key', () => {
  it('is made and stored on first use, then the same key every time', async () => {
    const box = await recordingBox();
    const key = await loadSpoolKey(box, at);
    expect(key).toHaveLength(32);
    expect(await box.get(SPOOL_KEY_NAME)).toBe(key.toString('base64'));
    expect((await loadSpoolKey(box, at)).equals(key)).toBe(true);
    expect(box.writes).toEqual([SPOOL_KEY_NAME]);
  });

  it('a stored key is used as it is, and nothing is written', async () => {
    const stored = randomBytes(32);
    const box = await recordingBox({ [SPOOL_KEY_NAME]: stored.toString('base64') });
    expect((await loadSpoolKey(box, at)).equals(stored)).toBe(true);
    expect(box.writes).toEqual([]);
  });

  it('a box that cannot be read is left alone: the error reaches the caller, nothing is written', async () => {
    const box = await recordingBox();
    const locked: SecretBox = {
      ...box,
      get: () => Promise.reject(new Error('the keychain is locked')),
    };
    await expect(loadSpoolKey(locked, at)).rejects.toThrow('the keychain is locked');
    expect(box.writes).toEqual([]);
  });

  it('a stored value that is not a key is kept under another name before a fresh key is stored', async () => {
    const damaged = randomBytes(16).toString('base64');
    const box = await recordingBox({ [SPOOL_KEY_NAME]: damaged });
    const key = await loadSpoolKey(box, at);
    expect(key).toHaveLength(32);
    expect(await box.get(`spool-key-unreadable-${at()}`)).toBe(damaged);
    expect(await box.get(SPOOL_KEY_NAME)).toBe(key.toString('base64'));
    expect(box.writes).toEqual([`spool-key-unreadable-${at()}`, SPOOL_KEY_NAME]);

    // Another one in the same millisecond does not take the first one's place.
    await box.set(SPOOL_KEY_NAME, 'not base64 at all!');
    await loadSpoolKey(box, at);
    expect(await box.get(`spool-key-unreadable-${at()}`)).toBe(damaged);
    expect(await box.get(`spool-key-unreadable-${at()}-1`)).toBe('not base64 at all!');
  });
});
