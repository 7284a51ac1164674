import { chmod, chown, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkAdminOnlyFile, type FileFacts } from './admin-only-file';

// Real files in a temp folder, trusted to whoever runs the tests (root in CI), and the walk up the
// folders stopped at that temp folder: /tmp's own parents are the machine's, not the test's.
const me = process.getuid?.() ?? 0;
const asRoot = me === 0;

let dir: string;
let etc: string;
let file: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'scribe-admin-only-')));
  etc = join(dir, 'etc');
  await mkdir(etc, { mode: 0o755 });
  await chmod(etc, 0o755);
  file = join(etc, 'policy.json');
  await writeFile(file, '{}');
  await chmod(file, 0o644);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const check = (path: string) => checkAdminOnlyFile(path, { trustedUid: me, stopAt: dir });
const FILE_RULE = 'must be owned by root and writable by root alone';
const FOLDER_RULE = 'must be in folders owned by root and writable by root alone';

describe('a policy file only root can have written', () => {
  it('is trusted when it and its folders are owned by root and writable by root alone', async () => {
    expect(await check(file)).toEqual({ kind: 'trusted', realPath: file });
    // Read-only for others and a group that may read it (root:clinicians 0640) are both fine.
    await chmod(file, 0o640);
    expect(await check(file)).toEqual({ kind: 'trusted', realPath: file });
  });

  it('is refused when its group can write it', async () => {
    await chmod(file, 0o664);
    expect(await check(file)).toEqual({
      kind: 'untrusted',
      rule: `${FILE_RULE} (it is writable by its group)`,
    });
  });

  it('is refused when every user can write it', async () => {
    await chmod(file, 0o646);
    expect(await check(file)).toEqual({
      kind: 'untrusted',
      rule: `${FILE_RULE} (it is writable by every user)`,
    });
    await chmod(file, 0o666);
    expect(await check(file)).toMatchObject({
      rule: `${FILE_RULE} (it is writable by its group and by every user)`,
    });
  });

  it.runIf(asRoot)('is refused when someone other than root owns it (needs root to chown)', async () => {
    await chown(file, 1234, 1234);
    expect(await checkAdminOnlyFile(file, { stopAt: dir })).toEqual({
      kind: 'untrusted',
      rule: `${FILE_RULE} (it is owned by uid 1234)`,
    });
  });

  it.runIf(asRoot)('is refused in a folder someone other than root owns (needs root to chown)', async () => {
    await chown(etc, 1234, 1234);
    expect(await checkAdminOnlyFile(file, { stopAt: dir })).toEqual({
      kind: 'untrusted',
      rule: `${FOLDER_RULE} (${etc} is owned by uid 1234)`,
    });
  });

  it('is refused in a folder every user can write, unless the folder is sticky', async () => {
    await chmod(etc, 0o757);
    expect(await check(file)).toEqual({
      kind: 'untrusted',
      rule: `${FOLDER_RULE} (${etc} is writable by every user)`,
    });
    await chmod(etc, 0o775);
    expect(await check(file)).toMatchObject({ rule: `${FOLDER_RULE} (${etc} is writable by its group)` });
    // Sticky (as /tmp): others may add files there but not rename or remove root's.
    await chmod(etc, 0o1777);
    expect(await check(file)).toEqual({ kind: 'trusted', realPath: file });
  });

  it('checks every folder up to where the walk stops, that one included', async () => {
    await chmod(dir, 0o757);
    expect(await check(file)).toEqual({
      kind: 'untrusted',
      rule: `${FOLDER_RULE} (${dir} is writable by every user)`,
    });
  });

  it('follows a link and checks the file it leads to, and that file’s folders', async () => {
    const elsewhere = join(dir, 'elsewhere');
    await mkdir(elsewhere);
    await chmod(elsewhere, 0o755);
    const target = join(elsewhere, 'target.json');
    await writeFile(target, '{}');
    await chmod(target, 0o664);
    const link = join(etc, 'linked.json');
    await symlink(target, link);
    expect(await check(link)).toEqual({
      kind: 'untrusted',
      rule: `${FILE_RULE} (${target} is writable by its group)`,
    });
    await chmod(target, 0o644);
    // The file to read is the target, so a link changed after the check is not followed.
    expect(await check(link)).toEqual({ kind: 'trusted', realPath: target });
    await chmod(elsewhere, 0o757);
    expect(await check(link)).toEqual({
      kind: 'untrusted',
      rule: `${FOLDER_RULE} (${elsewhere} is writable by every user)`,
    });
  });

  it('is absent when there is no file, or a link to none; a folder is not a file', async () => {
    expect(await check(join(etc, 'none.json'))).toEqual({ kind: 'absent' });
    await symlink(join(dir, 'nowhere.json'), join(etc, 'dangling.json'));
    expect(await check(join(etc, 'dangling.json'))).toEqual({ kind: 'absent' });
    expect(await check(etc)).toEqual({ kind: 'untrusted', rule: 'must be a regular file (it is not one)' });
  });
});

describe('the walk and the trusted owner, with the file system given', () => {
  // A tree with /etc/ambient-scribe/policy.json, each entry owned and moded as given.
  function tree(entries: Record<string, FileFacts>) {
    const seen: string[] = [];
    return {
      seen,
      options: {
        realpath: async (path: string) => path,
        stat: async (path: string) => {
          seen.push(path);
          const facts = entries[path];
          if (!facts) throw Object.assign(new Error('absent'), { code: 'ENOENT' });
          return facts;
        },
      },
    };
  }
  const ROOT_DIR = { uid: 0, mode: 0o040755 };
  const ROOT_FILE = { uid: 0, mode: 0o100644 };

  it('trusts root by default and walks every folder up to /', async () => {
    const good = tree({
      '/': ROOT_DIR,
      '/etc': ROOT_DIR,
      '/etc/ambient-scribe': ROOT_DIR,
      '/etc/ambient-scribe/policy.json': ROOT_FILE,
    });
    expect(await checkAdminOnlyFile('/etc/ambient-scribe/policy.json', good.options)).toMatchObject({
      kind: 'trusted',
    });
    expect(good.seen).toEqual(['/etc/ambient-scribe/policy.json', '/etc/ambient-scribe', '/etc', '/']);

    const writableRoot = tree({
      '/': { uid: 0, mode: 0o040757 },
      '/etc': ROOT_DIR,
      '/etc/ambient-scribe': ROOT_DIR,
      '/etc/ambient-scribe/policy.json': ROOT_FILE,
    });
    expect(await checkAdminOnlyFile('/etc/ambient-scribe/policy.json', writableRoot.options)).toEqual({
      kind: 'untrusted',
      rule: `${FOLDER_RULE} (/ is writable by every user)`,
    });

    const notRoot = tree({
      '/': ROOT_DIR,
      '/etc': ROOT_DIR,
      '/etc/ambient-scribe': ROOT_DIR,
      '/etc/ambient-scribe/policy.json': { uid: 501, mode: 0o100644 },
    });
    expect(await checkAdminOnlyFile('/etc/ambient-scribe/policy.json', notRoot.options)).toEqual({
      kind: 'untrusted',
      rule: `${FILE_RULE} (it is owned by uid 501)`,
    });
  });

  it('says so when the file cannot be looked at', async () => {
    const denied = {
      realpath: async () => {
        throw Object.assign(new Error('denied'), { code: 'EACCES' });
      },
    };
    expect(await checkAdminOnlyFile('/etc/ambient-scribe/policy.json', denied)).toEqual({
      kind: 'unreadable',
      code: 'EACCES',
    });
  });
});
