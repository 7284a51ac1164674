import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureLog } from '../auth/testing/test-ports';
import { createJsonFileStorage } from '../json-file-storage';
import { recordGenerationFile } from './record-generation';
import { sealedJsonStorage } from './sealed-json-storage';

/**
 * privacy.json's store (issue 39, "fail closed on every store"): on disk, as the app keeps it, a
 * document edited by hand, put back from before, or without its count reads as missing.
 */
describe('sealedJsonStorage', () => {
  let dir: string;
  const key = randomBytes(32);
  const log = captureLog();
  const storageIn = (folder: string, spoolKey: () => Promise<Uint8Array> = async () => key) =>
    sealedJsonStorage(createJsonFileStorage(join(folder, 'privacy.json'), log), {
      purpose: 'privacy record',
      spoolKey,
      generation: recordGenerationFile(join(folder, 'privacy-generation'), spoolKey, {
        purpose: 'privacy generation',
        name: 'privacy record',
      }),
      log,
    });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scribe-sealed-json-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads back what it wrote, across a restart, and keeps nothing of it in plain text', async () => {
    await storageIn(dir).write({ signedOut: true, passwordOwed: true });
    expect(await storageIn(dir).read()).toEqual({ signedOut: true, passwordOwed: true });
    const onDisk = await readFile(join(dir, 'privacy.json'), 'utf8');
    expect(onDisk).not.toContain('passwordOwed');
    expect(Object.keys(JSON.parse(onDisk) as object)).toEqual(['sealed']);
  });

  it('reads nothing stored as missing, and nothing is refused', async () => {
    expect(await storageIn(dir).read()).toBeUndefined();
  });

  it('reads a document written by hand, or by a version before, as missing', async () => {
    await storageIn(dir).write({ passwordOwed: true });
    await writeFile(join(dir, 'privacy.json'), JSON.stringify({}));
    expect(await storageIn(dir).read()).toBeUndefined();
    expect(log.lines.some((line) => /privacy record: not sealed by this app/.test(line.message))).toBe(true);
  });

  it('reads an older copy put back as missing, and the next write is newer than both', async () => {
    const storage = storageIn(dir);
    await storage.write({});
    await copyFile(join(dir, 'privacy.json'), join(dir, 'older.json'));
    await storage.write({ signedOut: true, passwordOwed: true });
    await copyFile(join(dir, 'older.json'), join(dir, 'privacy.json'));

    const restarted = storageIn(dir);
    expect(await restarted.read()).toBeUndefined();
    await restarted.write({ passwordOwed: true });
    expect(await storageIn(dir).read()).toEqual({ passwordOwed: true });
  });

  it('reads a document whose count is deleted, or sealed under another key, as missing', async () => {
    await storageIn(dir).write({});
    await rm(join(dir, 'privacy-generation'));
    expect(await storageIn(dir).read()).toBeUndefined();

    await storageIn(dir).write({});
    expect(await storageIn(dir, async () => randomBytes(32)).read()).toBeUndefined();
    expect(await storageIn(dir).read()).toEqual({});
  });

  it('reads as missing when the key cannot be loaded', async () => {
    await storageIn(dir).write({});
    const noKey = storageIn(dir, () => Promise.reject(new Error('keychain locked')));
    expect(await noKey.read()).toBeUndefined();
  });
});
