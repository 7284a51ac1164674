import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createFileSecretBox } from './file-secret-box';
import { createMemorySecretBox, MEMORY_ONLY_NOTICE, SECRET_NAMES, type SecretCipher } from './secret-box';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scribe-secrets-'));
  // A data directory that does not exist yet: the first write creates it.
  file = join(dir, 'data', 'secrets.json');
});

describe('the owner-only secret file (browser mode)', () => {
  it('keeps secrets across a reopen, in a file only the owner can read', async () => {
    const box = createFileSecretBox({ filePath: file });
    expect(box.persistence).toBe('owner-only-file');
    expect(await box.get(SECRET_NAMES.partnerToken)).toBeUndefined();
    await box.set(SECRET_NAMES.partnerToken, 'partner-secret-1');
    await box.set(SECRET_NAMES.oidcRefreshToken, 'refresh-secret-1');

    const reopened = createFileSecretBox({ filePath: file });
    expect(await reopened.get(SECRET_NAMES.partnerToken)).toBe('partner-secret-1');
    expect(await reopened.get(SECRET_NAMES.oidcRefreshToken)).toBe('refresh-secret-1');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'data'))).mode & 0o077).toBe(0);
  });

  it('forgets a deleted secret for good, and leaves no temp files behind', async () => {
    const box = createFileSecretBox({ filePath: file });
    await box.set(SECRET_NAMES.oidcRefreshToken, 'refresh-secret-2');
    await box.delete(SECRET_NAMES.oidcRefreshToken);
    expect(await box.get(SECRET_NAMES.oidcRefreshToken)).toBeUndefined();
    expect(await createFileSecretBox({ filePath: file }).get(SECRET_NAMES.oidcRefreshToken)).toBeUndefined();
    expect(await readFile(file, 'utf8')).not.toContain('refresh-secret-2');
    expect(await readdir(join(dir, 'data'))).toEqual(['secrets.json']);
  });

  it('loses no update when rotations land back to back', async () => {
    const box = createFileSecretBox({ filePath: file });
    await Promise.all([
      box.set(SECRET_NAMES.partnerToken, 'p'),
      box.set(SECRET_NAMES.oidcRefreshToken, 'r1'),
      box.set(SECRET_NAMES.oidcRefreshToken, 'r2'),
    ]);
    const reopened = createFileSecretBox({ filePath: file });
    expect(await reopened.get(SECRET_NAMES.partnerToken)).toBe('p');
    expect(await reopened.get(SECRET_NAMES.oidcRefreshToken)).toBe('r2');
  });

  it('keeps an unreadable file aside instead of overwriting it', async () => {
    await createFileSecretBox({ filePath: file }).set('x', 'y');
    await writeFile(file, '{ not json');
    const box = createFileSecretBox({ filePath: file });
    expect(await box.get('x')).toBeUndefined();
    expect(
      (await readdir(join(dir, 'data'))).some((name) => name.startsWith('secrets.json.unreadable-')),
    ).toBe(true);
  });
});

describe('the same file with a cipher (how the Electron shell wraps safeStorage)', () => {
  // Stands in for safeStorage.encryptString/decryptString: reversible, and not the plain text.
  const cipher: SecretCipher = {
    encrypt: (plain) => Buffer.from(plain, 'utf8').map((byte) => byte ^ 0x5a),
    decrypt: (data) => Buffer.from(Buffer.from(data).map((byte) => byte ^ 0x5a)).toString('utf8'),
  };

  it('stores ciphertext only and reads it back after a reopen', async () => {
    const box = createFileSecretBox({ filePath: file, cipher });
    expect(box.persistence).toBe('encrypted');
    await box.set(SECRET_NAMES.partnerToken, 'partner-secret-3');
    expect(await readFile(file, 'utf8')).not.toContain('partner-secret-3');
    expect(await createFileSecretBox({ filePath: file, cipher }).get(SECRET_NAMES.partnerToken)).toBe(
      'partner-secret-3',
    );
  });

  it('does not hand out a plain file’s values as if they were decrypted, and keeps that file aside', async () => {
    await createFileSecretBox({ filePath: file }).set(SECRET_NAMES.partnerToken, 'plain');
    const box = createFileSecretBox({ filePath: file, cipher });
    expect(await box.get(SECRET_NAMES.partnerToken)).toBeUndefined();
    await box.set('spool-key', 'new-key');
    const kept = (await readdir(join(dir, 'data'))).filter((n) => n.startsWith('secrets.json.other-format-'));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(dir, 'data', kept[0]!), 'utf8')).toContain('plain');
  });

  it('a value the keychain cannot decrypt any more is kept aside, not overwritten, when a new one is set', async () => {
    await createFileSecretBox({ filePath: file, cipher }).set('spool-key', 'the-old-key');
    // Another keychain (or a locked one): the same file no longer decrypts.
    const otherKeychain: SecretCipher = {
      encrypt: cipher.encrypt,
      decrypt: () => {
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      },
    };
    const box = createFileSecretBox({ filePath: file, cipher: otherKeychain });
    expect(await box.get('spool-key')).toBeUndefined();
    await box.set('spool-key', 'a-new-key');
    // The keychain comes back: the old value is still there, under another name.
    const stored = JSON.parse(await readFile(file, 'utf8')) as { secrets: Record<string, string> };
    const keptName = Object.keys(stored.secrets).find((n) => n.startsWith('spool-key.unreadable-'));
    expect(keptName).toBeDefined();
    expect(await createFileSecretBox({ filePath: file, cipher }).get(keptName!)).toBe('the-old-key');
  });
});

describe('the memory box (no keychain on this machine)', () => {
  it('keeps values until the app quits and says so', async () => {
    const box = createMemorySecretBox({ notice: MEMORY_ONLY_NOTICE });
    expect(box.persistence).toBe('memory');
    expect(box.notice).toBe(MEMORY_ONLY_NOTICE);
    await box.set('a', 'b');
    expect(await box.get('a')).toBe('b');
    await box.delete('a');
    expect(await box.get('a')).toBeUndefined();
  });
});
