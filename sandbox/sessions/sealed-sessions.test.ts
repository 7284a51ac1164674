import { appendFileSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoAtRestCipher } from '../../src/main/core/service/demo-at-rest';
import { audioFile } from './audio-file';
import { createSessionStore } from './session-store';

/** The built-in demo's sessions at rest: sealed on disk, continued after a restart, forgotten whole. */
const cipher = demoAtRestCipher(new Uint8Array(32).fill(3));
const owner = { partnerId: 'p', providerId: 'dr' };
const pcm = (n: number, fill: number) => Buffer.alloc(n, fill);

describe('sealed session files', () => {
  it('keep the audio unreadable on disk and give it back whole; a frame cut by a crash is dropped', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sealed-audio-')), 'a.pcm.sealed');
    const file = audioFile(path, cipher);
    file.append(pcm(3_200, 0x41));
    file.append(pcm(1_000, 0x42));
    expect(file.size()).toBe(4_200);
    expect(file.read().equals(Buffer.concat([pcm(3_200, 0x41), pcm(1_000, 0x42)]))).toBe(true);
    expect(readFileSync(path).includes(pcm(64, 0x41))).toBe(false);
    expect(statSync(path).mode & 0o777).toBe(0o600);

    // A crash in the middle of an append: half a frame on disk.
    const whole = statSync(path).size;
    appendFileSync(path, Buffer.from([0, 0, 12, 128, 1, 2, 3]));
    expect(file.size()).toBe(4_200);
    expect(statSync(path).size).toBe(whole);
    file.append(pcm(100, 0x43));
    expect(file.read().subarray(4_200).equals(pcm(100, 0x43))).toBe(true);

    // Another key (another data directory's) reads nothing.
    expect(() => audioFile(path, demoAtRestCipher(new Uint8Array(32).fill(4))).read()).toThrow();
  });

  it('continue a session after a restart and forget one with nothing left behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sealed-store-'));
    const store = await createSessionStore(dir, { cipher });
    const kept = await store.create('ambient', 'enc-1', owner);
    const gone = await store.create('ambient', 'enc-2', owner);
    store.appendAudio(kept, pcm(3_200, 1));
    store.appendAudio(gone, pcm(3_200, 2));
    kept.context = { patient_info: { date_of_birth: '1950-01-02' } } as never;
    await store.save(kept);
    for (const name of readdirSync(dir)) {
      expect(name).toMatch(/\.(json|pcm)\.sealed$/);
      expect(readFileSync(join(dir, name)).includes('1950-01-02')).toBe(false);
      expect(readFileSync(join(dir, name)).includes('enc-1')).toBe(false);
    }

    expect(await store.forget((id) => id === gone.id)).toEqual([gone.id]);
    expect(readdirSync(dir).some((name) => name.startsWith(gone.id))).toBe(false);
    // Audio still arriving for it (a stream draining) brings nothing back.
    store.appendAudio(gone, pcm(100, 2));
    await store.save(gone);
    expect(readdirSync(dir).some((name) => name.startsWith(gone.id))).toBe(false);

    const again = await createSessionStore(dir, { cipher });
    expect(again.list().map((s) => s.id)).toEqual([kept.id]);
    const restored = again.get(kept.id)!;
    expect(restored.receivedBytes).toBe(3_200);
    expect(restored.context).toEqual({ patient_info: { date_of_birth: '1950-01-02' } });
    expect((await again.readAudio(restored)).equals(pcm(3_200, 1))).toBe(true);

    // The key is lost (the keychain entry reset): what it sealed is unreadable for good. The store
    // starts empty and removes the files, rather than failing to start.
    const otherKey = await createSessionStore(dir, { cipher: demoAtRestCipher(new Uint8Array(32).fill(9)) });
    expect(otherKey.list()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
