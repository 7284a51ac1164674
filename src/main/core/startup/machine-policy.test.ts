import { describe, expect, it } from 'vitest';
import {
  LINUX_POLICY_FILE,
  MAC_MANAGED_PREFERENCES,
  MAC_POLICY_FILE,
  WINDOWS_POLICY_KEY,
  readMachinePolicy,
} from './machine-policy';
import { fakeLog, fakePolicyFs, fakeRun } from './policy-ports.test-support';

const POLICY = { serviceUrl: 'https://scribe.example.org', partnerId: 'clinic7' };
const SHELL_FOLDERS = 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Explorer\\Shell Folders';
const PROGRAM_DATA_FILE = 'D:\\ProgramData\\Ambient Scribe\\policy.json';
const SHELL_FOLDERS_OUTPUT = `\r\n${SHELL_FOLDERS.replace('HKLM', 'HKEY_LOCAL_MACHINE')}\r\n    Common AppData    REG_SZ    D:\\ProgramData\r\n\r\n`;
const GOOD_SDDL = 'O:BAG:DUD:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)(A;ID;0x1200a9;;;BU)\r\n';
const USERS_CAN_WRITE = 'O:BAG:DUD:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)(A;ID;0x1200af;;;BU)';

describe('the machine policy on Linux', () => {
  it('reads /etc/ambient-scribe/policy.json when root owns it and its folders', async () => {
    const fs = fakePolicyFs({ [LINUX_POLICY_FILE]: { text: JSON.stringify(POLICY) } });
    const reading = await readMachinePolicy({ platform: 'linux', env: {}, log: fakeLog(), ports: { fs } });
    expect(reading).toEqual({ kind: 'policy', file: LINUX_POLICY_FILE, policy: POLICY });
    expect(fs.stat.mock.calls.map(([path]) => path)).toEqual([
      LINUX_POLICY_FILE,
      '/etc/ambient-scribe',
      '/etc',
      '/',
    ]);
  });

  // Issue 39, item 9: a file a user could have written is neither applied nor a stop at the screen
  // for IT (which would let any user stop every user's app); the log names the file and the rule.
  it('ignores it, unread, when its group can write it, naming the file and the rule in the log', async () => {
    const fs = fakePolicyFs({ [LINUX_POLICY_FILE]: { text: JSON.stringify(POLICY), mode: 0o664 } });
    const log = fakeLog();
    expect(await readMachinePolicy({ platform: 'linux', env: {}, log, ports: { fs } })).toEqual({
      kind: 'none',
    });
    expect(log.warn).toHaveBeenCalledWith(
      `policy: ${LINUX_POLICY_FILE} is ignored: it must be owned by root and writable by root alone (it is writable by its group), and a user could have written it`,
    );
    expect(fs.readFile).not.toHaveBeenCalled();
  });

  it('ignores it in a folder another user owns', async () => {
    const fs = fakePolicyFs(
      { [LINUX_POLICY_FILE]: { text: JSON.stringify(POLICY) } },
      { '/etc/ambient-scribe': { uid: 1000, mode: 0o040755 } },
    );
    const log = fakeLog();
    expect(await readMachinePolicy({ platform: 'linux', env: {}, log, ports: { fs } })).toEqual({
      kind: 'none',
    });
    expect(log.warn).toHaveBeenCalledWith(
      expect.stringContaining(
        'must be in folders owned by root and writable by root alone (/etc/ambient-scribe is owned by uid 1000)',
      ),
    );
  });

  it('is none when there is no file', async () => {
    const fs = fakePolicyFs({});
    expect(await readMachinePolicy({ platform: 'linux', env: {}, log: fakeLog(), ports: { fs } })).toEqual({
      kind: 'none',
    });
  });
});

describe('the machine policy on macOS', () => {
  it('takes the managed-preferences profile first, converted by plutil, its keys the policy keys', async () => {
    const fs = fakePolicyFs({
      [MAC_MANAGED_PREFERENCES]: { text: '<plist/>' },
      [MAC_POLICY_FILE]: { text: JSON.stringify({ partnerId: 'from-the-file' }) },
    });
    const run = fakeRun({ plutil: { stdout: JSON.stringify({ ...POLICY, demoAllowed: false }) } });
    expect(
      await readMachinePolicy({ platform: 'darwin', env: {}, log: fakeLog(), ports: { fs, run } }),
    ).toEqual({
      kind: 'policy',
      file: MAC_MANAGED_PREFERENCES,
      policy: { ...POLICY, demoAllowed: false },
    });
    expect(run).toHaveBeenCalledExactlyOnceWith('/usr/bin/plutil', [
      '-convert',
      'json',
      '-o',
      '-',
      MAC_MANAGED_PREFERENCES,
    ]);
    expect(fs.readFile).not.toHaveBeenCalled();
  });

  it('refuses a profile plutil cannot convert, without repeating what plutil said', async () => {
    const fs = fakePolicyFs({ [MAC_MANAGED_PREFERENCES]: { text: '<plist/>' } });
    const run = fakeRun({ plutil: { exitCode: 1, stderr: 'partnerToken secret-of-clinic-seven: invalid' } });
    const reading = await readMachinePolicy({
      platform: 'darwin',
      env: {},
      log: fakeLog(),
      ports: { fs, run },
    });
    expect(reading).toMatchObject({
      kind: 'invalid',
      file: MAC_MANAGED_PREFERENCES,
      problems: [
        { key: '(file)', rule: expect.stringMatching(/^must be a property list plutil can convert/) },
      ],
    });
    expect(JSON.stringify(reading)).not.toContain('secret-of');
  });

  it('ignores a profile a user could write, without converting it', async () => {
    const fs = fakePolicyFs({ [MAC_MANAGED_PREFERENCES]: { text: '<plist/>', uid: 501 } });
    const run = fakeRun({});
    const log = fakeLog();
    expect(await readMachinePolicy({ platform: 'darwin', env: {}, log, ports: { fs, run } })).toEqual({
      kind: 'none',
    });
    expect(log.warn).toHaveBeenCalledWith(
      `policy: ${MAC_MANAGED_PREFERENCES} is ignored: it must be owned by root and writable by root alone (it is owned by uid 501), and a user could have written it`,
    );
    expect(run).not.toHaveBeenCalled();
  });

  it('without a profile, reads the root-owned file in /Library/Application Support', async () => {
    const fs = fakePolicyFs({ [MAC_POLICY_FILE]: { text: JSON.stringify(POLICY) } });
    expect(
      await readMachinePolicy({
        platform: 'darwin',
        env: {},
        log: fakeLog(),
        ports: { fs, run: fakeRun({}) },
      }),
    ).toEqual({
      kind: 'policy',
      file: MAC_POLICY_FILE,
      policy: POLICY,
    });
  });
});

describe('the machine policy on Windows', () => {
  const REGISTRY_OUTPUT = [
    '',
    'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Ambient Scribe',
    '    serviceUrl    REG_SZ    https://scribe.example.org',
    '    partnerId    REG_SZ    clinic7',
    '    locked    REG_MULTI_SZ    serviceUrl\\0partnerId',
    '',
  ].join('\r\n');
  const windows = { SystemRoot: 'C:\\Windows', ProgramData: 'E:\\Anyone' };
  const toolExists = () => true;

  it('takes the registry key first, named as the key, by reg.exe from System32', async () => {
    const fs = fakePolicyFs({ [PROGRAM_DATA_FILE]: { text: '{}' } });
    const run = fakeRun({ [`reg.exe ${WINDOWS_POLICY_KEY}`]: { stdout: REGISTRY_OUTPUT } });
    expect(
      await readMachinePolicy({
        platform: 'win32',
        env: windows,
        log: fakeLog(),
        ports: { fs, run, toolExists },
      }),
    ).toEqual({
      kind: 'policy',
      file: WINDOWS_POLICY_KEY,
      policy: { ...POLICY, locked: ['serviceUrl', 'partnerId'] },
    });
    expect(run).toHaveBeenCalledExactlyOnceWith('C:\\Windows\\System32\\reg.exe', [
      'query',
      WINDOWS_POLICY_KEY,
    ]);
    expect(fs.stat).not.toHaveBeenCalled();
  });

  it('names each registry value that breaks a rule, its type or the policy’s', async () => {
    const run = fakeRun({
      [`reg.exe ${WINDOWS_POLICY_KEY}`]: {
        stdout: `${WINDOWS_POLICY_KEY}\r\n    demoAllowed    REG_SZ    no\r\n    idleLockMinutes    REG_DWORD    0x0\r\n`,
      },
    });
    expect(
      await readMachinePolicy({
        platform: 'win32',
        env: windows,
        log: fakeLog(),
        ports: { fs: fakePolicyFs({}), run, toolExists },
      }),
    ).toEqual({
      kind: 'invalid',
      file: WINDOWS_POLICY_KEY,
      problems: [
        { key: 'demoAllowed', rule: 'must be a REG_DWORD value, 1 for true or 0 for false' },
        { key: 'idleLockMinutes', rule: 'must be between 1 and 60 minutes' },
      ],
    });
  });

  it('without the key, reads ProgramData’s file, its folder from the registry, after judging its ACL', async () => {
    const fs = fakePolicyFs({ [PROGRAM_DATA_FILE]: { text: JSON.stringify(POLICY) } });
    const run = fakeRun({
      [`reg.exe ${SHELL_FOLDERS}`]: { stdout: SHELL_FOLDERS_OUTPUT },
      'powershell.exe': { stdout: GOOD_SDDL },
    });
    expect(
      await readMachinePolicy({
        platform: 'win32',
        env: windows,
        log: fakeLog(),
        ports: { fs, run, toolExists },
      }),
    ).toEqual({ kind: 'policy', file: PROGRAM_DATA_FILE, policy: POLICY });
    // ProgramData from the registry, never from %ProgramData%.
    expect(run).toHaveBeenNthCalledWith(2, 'C:\\Windows\\System32\\reg.exe', [
      'query',
      SHELL_FOLDERS,
      '/v',
      'Common AppData',
    ]);
    expect(fs.stat).toHaveBeenCalledExactlyOnceWith(PROGRAM_DATA_FILE);
    // The path reaches PowerShell in its environment, never in the command it runs.
    const [tool, args, options] = run.mock.calls[2]!;
    expect(tool).toBe('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    expect(args).toEqual([
      '-NoProfile',
      '-NonInteractive',
      '-Command',
      '(Get-Acl -LiteralPath $env:SCRIBE_POLICY_PATH).Sddl',
    ]);
    expect(options?.env).toMatchObject({
      SCRIBE_POLICY_PATH: PROGRAM_DATA_FILE,
      PSModulePath: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\Modules',
    });
  });

  it('ignores ProgramData’s file, unread, when Users can write it: a user may have made it (issue 39, item 9)', async () => {
    const fs = fakePolicyFs({ [PROGRAM_DATA_FILE]: { text: JSON.stringify(POLICY) } });
    const run = fakeRun({
      [`reg.exe ${SHELL_FOLDERS}`]: { stdout: SHELL_FOLDERS_OUTPUT },
      'powershell.exe': { stdout: USERS_CAN_WRITE },
    });
    const log = fakeLog();
    expect(
      await readMachinePolicy({ platform: 'win32', env: windows, log, ports: { fs, run, toolExists } }),
    ).toEqual({ kind: 'none' });
    expect(log.warn).toHaveBeenCalledWith(
      `policy: ${PROGRAM_DATA_FILE} is ignored: it must be writable by administrators alone (BUILTIN\\Users can write it), and a user could have written it`,
    );
    expect(fs.readFile).not.toHaveBeenCalled();
  });

  it('ignores ProgramData’s file when its ACL cannot be read, and is none when there is no file', async () => {
    const fs = fakePolicyFs({ [PROGRAM_DATA_FILE]: { text: JSON.stringify(POLICY) } });
    const failing = fakeRun({
      [`reg.exe ${SHELL_FOLDERS}`]: { stdout: SHELL_FOLDERS_OUTPUT },
      'powershell.exe': { exitCode: null, failure: 'timed out' },
    });
    const log = fakeLog();
    expect(
      await readMachinePolicy({
        platform: 'win32',
        env: windows,
        log,
        ports: { fs, run: failing, toolExists },
      }),
    ).toEqual({ kind: 'none' });
    expect(log.warn).toHaveBeenCalledWith(
      expect.stringContaining("must have permissions the app can read (PowerShell's Get-Acl timed out)"),
    );
    expect(fs.readFile).not.toHaveBeenCalled();
    const none = fakeRun({ [`reg.exe ${SHELL_FOLDERS}`]: { stdout: SHELL_FOLDERS_OUTPUT } });
    expect(
      await readMachinePolicy({
        platform: 'win32',
        env: windows,
        log: fakeLog(),
        ports: { fs: fakePolicyFs({}), run: none, toolExists },
      }),
    ).toEqual({ kind: 'none' });
    expect(none.mock.calls.map(([tool]) => tool)).not.toContain(
      'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    );
  });

  it('reads no file, and says so, when the registry has no ProgramData or reg.exe cannot run', async () => {
    const fs = fakePolicyFs({ [PROGRAM_DATA_FILE]: { text: JSON.stringify(POLICY) } });
    const log = fakeLog();
    const run = fakeRun({ [`reg.exe ${WINDOWS_POLICY_KEY}`]: { exitCode: null, failure: 'ENOENT' } });
    expect(
      await readMachinePolicy({ platform: 'win32', env: windows, log, ports: { fs, run, toolExists } }),
    ).toEqual({ kind: 'none' });
    expect(log.warn).toHaveBeenCalledWith('policy: the registry could not be read', {
      key: WINDOWS_POLICY_KEY,
      failure: 'ENOENT',
    });
    expect(log.warn).toHaveBeenCalledWith(
      'policy: the ProgramData folder is not in the registry; its policy file is not read',
    );
    expect(fs.stat).not.toHaveBeenCalled();
  });
});
