import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LINUX_POLICY_FILE, WINDOWS_POLICY_KEY } from './machine-policy';
import { fakeLog, fakePolicyFs, fakeRun } from './policy-ports.test-support';
import { isNetworkOrUrl, LOCAL_PATH_RULE } from './local-path';
import { readStartupPolicy } from './startup-policy';

const IT_POLICY = { serviceUrl: 'https://scribe.example.org', partnerId: 'clinic7', locked: ['serviceUrl'] };
const USERS_POLICY = { serviceUrl: 'https://elsewhere.example.net', partnerId: 'mine' };
const ARGUMENT = '/home/jdoe/my-policy.json';
const ENV_FILE = '/home/jdoe/env-policy.json';

/** A Linux machine with IT's policy in /etc (or none), and a user's files in their home folder. */
function machine(itPolicy: object | undefined) {
  return fakePolicyFs({
    ...(itPolicy ? { [LINUX_POLICY_FILE]: { text: JSON.stringify(itPolicy) } } : {}),
    [ARGUMENT]: { text: JSON.stringify(USERS_POLICY), uid: 1000 },
    [ENV_FILE]: { text: JSON.stringify({ partnerId: 'from-env' }), uid: 1000 },
  });
}

describe('an installed app: only IT sets policy', () => {
  it('ignores --policy and AMBIENT_SCRIBE_POLICY, and logs which, never the path', async () => {
    const fs = machine(IT_POLICY);
    const log = fakeLog();
    const reading = await readStartupPolicy({
      argument: ARGUMENT,
      env: { AMBIENT_SCRIBE_POLICY: ENV_FILE },
      platform: 'linux',
      packaged: true,
      log,
      ports: { fs },
    });
    expect(reading).toEqual({ kind: 'policy', file: LINUX_POLICY_FILE, policy: IT_POLICY });
    expect(fs.readFile.mock.calls.map(([path]) => path)).toEqual([LINUX_POLICY_FILE]);
    expect(log.warn).toHaveBeenCalledExactlyOnceWith(
      expect.stringMatching(/^policy: ignored in an installed app/),
      {
        ignored: ['--policy', 'AMBIENT_SCRIBE_POLICY'],
      },
    );
    expect(JSON.stringify(log.warn.mock.calls)).not.toContain('/home/jdoe');
  });

  it('ignores them with no machine policy too: the app starts unmanaged, not with the user’s file', async () => {
    const fs = machine(undefined);
    const log = fakeLog();
    expect(
      await readStartupPolicy({
        argument: ARGUMENT,
        env: {},
        platform: 'linux',
        packaged: true,
        log,
        ports: { fs },
      }),
    ).toEqual({ kind: 'none' });
    expect(fs.readFile).not.toHaveBeenCalled();
    expect(log.warn).toHaveBeenCalledWith(expect.any(String), { ignored: ['--policy'] });
  });

  it('ignores them when the machine policy is one a user could have written: its allowLocalPolicy is not IT’s', async () => {
    const fs = fakePolicyFs({
      [LINUX_POLICY_FILE]: { text: JSON.stringify({ ...IT_POLICY, allowLocalPolicy: true }), mode: 0o646 },
      [ARGUMENT]: { text: JSON.stringify(USERS_POLICY) },
    });
    const log = fakeLog();
    const reading = await readStartupPolicy({
      argument: ARGUMENT,
      env: {},
      platform: 'linux',
      packaged: true,
      log,
      ports: { fs },
    });
    // Neither file applies: the machine's is ignored (issue 39, item 9), and so is the local one.
    expect(reading).toEqual({ kind: 'none' });
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining(`policy: ${LINUX_POLICY_FILE} is ignored`));
    expect(fs.readFile).not.toHaveBeenCalled();
  });

  it('honours them when the machine policy sets allowLocalPolicy: the local file is read instead', async () => {
    const fs = machine({ ...IT_POLICY, allowLocalPolicy: true });
    const log = fakeLog();
    expect(
      await readStartupPolicy({
        argument: ARGUMENT,
        env: { AMBIENT_SCRIBE_POLICY: ENV_FILE },
        platform: 'linux',
        packaged: true,
        log,
        ports: { fs },
      }),
    ).toEqual({ kind: 'policy', file: ARGUMENT, policy: USERS_POLICY });
    expect(log.warn).not.toHaveBeenCalled();
    expect(
      await readStartupPolicy({
        env: { AMBIENT_SCRIBE_POLICY: ENV_FILE },
        platform: 'linux',
        packaged: true,
        log,
        ports: { fs },
      }),
    ).toEqual({ kind: 'policy', file: ENV_FILE, policy: { partnerId: 'from-env' } });
    // allowLocalPolicy: false is no permission.
    const denied = machine({ ...IT_POLICY, allowLocalPolicy: false });
    expect(
      await readStartupPolicy({
        argument: ARGUMENT,
        env: {},
        platform: 'linux',
        packaged: true,
        log,
        ports: { fs: denied },
      }),
    ).toMatchObject({ kind: 'policy', file: LINUX_POLICY_FILE });
  });

  it('with allowLocalPolicy, still refuses a network path, unread', async () => {
    // Windows, IT's policy in the registry allowing a local one; the user's a file on a share.
    const fs = machine(undefined);
    const run = fakeRun({
      [`reg.exe ${WINDOWS_POLICY_KEY}`]: {
        stdout: `${WINDOWS_POLICY_KEY}\r\n    allowLocalPolicy    REG_DWORD    0x1\r\n`,
      },
    });
    for (const [source, origin, path] of [
      [
        { argument: '\\\\fileserver\\share\\policy.json', env: {} },
        '--policy',
        '\\\\fileserver\\share\\policy.json',
      ],
      [
        { env: { AMBIENT_SCRIBE_POLICY: 'file://fileserver/policy.json' } },
        'AMBIENT_SCRIBE_POLICY',
        'file://fileserver/policy.json',
      ],
    ] as const)
      expect(
        await readStartupPolicy({
          ...source,
          platform: 'win32',
          packaged: true,
          log: fakeLog(),
          ports: { fs, run },
        }),
      ).toEqual({ kind: 'invalid', file: path, problems: [{ key: origin, rule: LOCAL_PATH_RULE }] });
    expect(fs.readFile).not.toHaveBeenCalled();
    expect(fs.stat).not.toHaveBeenCalled();
  });
});

describe('an unpackaged run or browser mode: the local file first', () => {
  it('reads --policy, then AMBIENT_SCRIBE_POLICY, then the machine places', async () => {
    const fs = machine(IT_POLICY);
    const options = { platform: 'linux' as const, packaged: false, log: fakeLog(), ports: { fs } };
    expect(
      await readStartupPolicy({ ...options, argument: ARGUMENT, env: { AMBIENT_SCRIBE_POLICY: ENV_FILE } }),
    ).toEqual({ kind: 'policy', file: ARGUMENT, policy: USERS_POLICY });
    expect(await readStartupPolicy({ ...options, env: { AMBIENT_SCRIBE_POLICY: ENV_FILE } })).toEqual({
      kind: 'policy',
      file: ENV_FILE,
      policy: { partnerId: 'from-env' },
    });
    expect(await readStartupPolicy({ ...options, env: {} })).toEqual({
      kind: 'policy',
      file: LINUX_POLICY_FILE,
      policy: IT_POLICY,
    });
    expect(options.log.warn).not.toHaveBeenCalled();
    // The machine place is checked here too: a group-writable /etc file is not IT's, and ignored.
    const loose = fakePolicyFs({ [LINUX_POLICY_FILE]: { text: JSON.stringify(IT_POLICY), mode: 0o664 } });
    expect(await readStartupPolicy({ ...options, env: {}, ports: { fs: loose } })).toEqual({ kind: 'none' });
    expect(options.log.warn).toHaveBeenCalledWith(
      expect.stringMatching(/is ignored: .*writable by its group/),
    );
  });

  it('refuses a UNC path or a URL, from either source, and never reads or looks at it', async () => {
    for (const path of [
      '\\\\fileserver\\share\\policy.json',
      '//fileserver/share/policy.json',
      '\\\\?\\UNC\\fileserver\\share\\policy.json',
      '\\\\.\\pipe\\policy',
      '  \\\\fileserver\\share\\policy.json',
      'file:///etc/ambient-scribe/policy.json',
      'file:/etc/ambient-scribe/policy.json',
      'http://fileserver/policy.json',
      'https://fileserver/policy.json',
      'smb://fileserver/share/policy.json',
      'webdav://fileserver/policy.json',
    ]) {
      const fs = machine(IT_POLICY);
      for (const [source, origin] of [
        [{ argument: path, env: {} }, '--policy'],
        [{ env: { AMBIENT_SCRIBE_POLICY: path } }, 'AMBIENT_SCRIBE_POLICY'],
      ] as const) {
        expect(
          await readStartupPolicy({
            ...source,
            platform: 'win32',
            packaged: false,
            log: fakeLog(),
            ports: { fs, run: fakeRun({}) },
          }),
          path,
        ).toEqual({ kind: 'invalid', file: path, problems: [{ key: origin, rule: LOCAL_PATH_RULE }] });
      }
      expect(fs.readFile).not.toHaveBeenCalled();
      expect(fs.stat).not.toHaveBeenCalled();
      expect(fs.realpath).not.toHaveBeenCalled();
    }
  });

  it('takes paths on this computer as paths', () => {
    for (const path of [
      'C:\\Policies\\policy.json',
      'c:/policies/policy.json',
      '/etc/p.json',
      'policy.json',
      './p.json',
    ])
      expect(isNetworkOrUrl(path), path).toBe(false);
  });
});

describe('with the real file system', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scribe-startup-policy-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads the --policy file of a browser-mode run', async () => {
    const file = join(dir, 'policy.json');
    await writeFile(file, JSON.stringify(IT_POLICY));
    expect(
      await readStartupPolicy({
        argument: file,
        env: {},
        platform: 'linux',
        packaged: false,
        log: fakeLog(),
      }),
    ).toEqual({ kind: 'policy', file, policy: IT_POLICY });
    expect(
      await readStartupPolicy({
        argument: join(dir, 'missing.json'),
        env: {},
        platform: 'linux',
        packaged: false,
        log: fakeLog(),
      }),
    ).toMatchObject({
      kind: 'invalid',
      problems: [{ key: '(file)', rule: expect.stringMatching(/^must exist/) }],
    });
  });
});
