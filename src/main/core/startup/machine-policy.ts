import { lstat, readFile, realpath } from 'node:fs/promises';
import { win32 } from 'node:path';
import type { Logger } from '../ports';
import { checkAdminOnlyFile, type FileFacts } from './admin-only-file';
import { checkPolicy, readPolicy, type PolicyReading } from './policy-file';
import { parseRegQuery, policyFromRegistry } from './reg-query';
import { judgeAdminOnlySddl } from './sddl';
import { runCommand, windowsSystemTool, type RunCommand } from './system-command';

/**
 * The organisation's policy from the places only an administrator can write, first found wins:
 *
 * - Windows: the registry key Group Policy and Intune write (as Chrome, Edge and VS Code read
 *   theirs), then a JSON file in ProgramData whose owner and access list are checked;
 * - macOS: the managed-preferences profile an MDM installs, then a root-owned JSON file;
 * - Linux (and any other Unix): a root-owned JSON file in /etc.
 *
 * A place that exists but that someone other than an administrator could have written is ignored
 * and logged, naming the place and the rule: applying a user's file as IT's would let them set
 * policy, and stopping at the screen for IT would let any user stop every user's app (issue 39,
 * item 9: a user can create ProgramData's file where no registry policy exists). A place only an
 * administrator could have written but that breaks a rule is `invalid`: the app stops at the
 * screen for IT, which names the place and the rule.
 */

export const LINUX_POLICY_FILE = '/etc/ambient-scribe/policy.json';
export const MAC_MANAGED_PREFERENCES = '/Library/Managed Preferences/com.ambientscribe.desktop.plist';
export const MAC_POLICY_FILE = '/Library/Application Support/Ambient Scribe/policy.json';
export const WINDOWS_POLICY_KEY = 'HKLM\\SOFTWARE\\Policies\\Ambient Scribe';
/** Where Windows keeps ProgramData's real location: %ProgramData% is the user's to set. */
const SHELL_FOLDERS_KEY = 'HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Explorer\\Shell Folders';

/** The file system as the machine places use it; tests pass their own. */
export interface PolicyFs {
  readFile(path: string): Promise<string>;
  /** lstat: its uid and its mode with the type bits. */
  stat(path: string): Promise<FileFacts>;
  realpath(path: string): Promise<string>;
}

export interface MachinePolicyPorts {
  fs: PolicyFs;
  /** reg.exe, powershell.exe, plutil. */
  run: RunCommand;
  /** Whether C:\Windows\System32\<tool> exists (system-command.ts). */
  toolExists?: (path: string) => boolean;
  /** The owner trusted to write a Unix policy file: root. */
  trustedUid?: number;
}

export const nodePolicyFs: PolicyFs = {
  readFile: (path) => readFile(path, 'utf8'),
  stat: lstat,
  realpath,
};

export const defaultMachinePolicyPorts: MachinePolicyPorts = { fs: nodePolicyFs, run: runCommand };

interface Context {
  env: NodeJS.ProcessEnv;
  log: Logger;
  ports: MachinePolicyPorts;
}

type Place = (context: Context) => Promise<PolicyReading>;

export async function readMachinePolicy(options: {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  log: Logger;
  ports?: Partial<MachinePolicyPorts>;
}): Promise<PolicyReading> {
  const context: Context = {
    env: options.env,
    log: options.log,
    ports: { ...defaultMachinePolicyPorts, ...options.ports },
  };
  const places: Place[] =
    options.platform === 'win32'
      ? [windowsRegistry, windowsProgramDataFile]
      : options.platform === 'darwin'
        ? [macManagedPreferences, (c) => adminOnlyJsonFile(MAC_POLICY_FILE, c)]
        : [(c) => adminOnlyJsonFile(LINUX_POLICY_FILE, c)];
  for (const place of places) {
    const reading = await place(context);
    if (reading.kind !== 'none') return reading;
  }
  return { kind: 'none' };
}

function invalid(file: string, rule: string): PolicyReading {
  return { kind: 'invalid', file, problems: [{ key: '(file)', rule }] };
}

/** A place someone other than an administrator could have written: not policy, and said in the log. */
function ignored(file: string, rule: string, context: Context): PolicyReading {
  context.log.warn(`policy: ${file} is ignored: it ${rule}, and a user could have written it`);
  return { kind: 'none' };
}

/** The reading named after the place IT put it, not the file a link there led to. */
function namedAs(file: string, reading: PolicyReading): PolicyReading {
  return reading.kind === 'none' ? reading : { ...reading, file };
}

/** Linux and macOS: checked for root's ownership first, then read from where the check resolved it. */
async function adminOnlyFile(
  path: string,
  context: Context,
  read: (realPath: string) => Promise<PolicyReading>,
): Promise<PolicyReading> {
  const { fs, trustedUid } = context.ports;
  const verdict = await checkAdminOnlyFile(path, { stat: fs.stat, realpath: fs.realpath, trustedUid });
  switch (verdict.kind) {
    case 'absent':
      return { kind: 'none' };
    case 'unreadable':
      return invalid(path, `must be readable by the user running the app (${verdict.code})`);
    case 'untrusted':
      return ignored(path, verdict.rule, context);
    case 'trusted':
      return namedAs(path, await read(verdict.realPath));
  }
}

function adminOnlyJsonFile(path: string, context: Context): Promise<PolicyReading> {
  return adminOnlyFile(path, context, (real) =>
    readPolicy([{ path: real, required: true }], context.ports.fs.readFile),
  );
}

/** An MDM's configuration profile for the app: its keys are the policy keys. */
function macManagedPreferences(context: Context): Promise<PolicyReading> {
  return adminOnlyFile(MAC_MANAGED_PREFERENCES, context, async (real) => {
    const converted = await context.ports.run('/usr/bin/plutil', ['-convert', 'json', '-o', '-', real]);
    let json: unknown;
    try {
      if (converted.exitCode !== 0) throw new Error('plutil failed');
      json = JSON.parse(converted.stdout);
    } catch {
      // plutil's message is not repeated: it may quote the profile, and the profile may hold the token.
      return invalid(
        real,
        'must be a property list plutil can convert to JSON (strings, numbers, true/false and arrays; no dates or data)',
      );
    }
    return checkPolicy(real, json);
  });
}

/** HKLM\SOFTWARE\Policies\Ambient Scribe: only administrators can write under Policies. */
async function windowsRegistry(context: Context): Promise<PolicyReading> {
  const output = await regQuery(context, [WINDOWS_POLICY_KEY]);
  if (output === undefined) return { kind: 'none' };
  const values = parseRegQuery(output);
  // An empty key (a Group Policy object with nothing set) is no policy.
  if (values.size === 0) return { kind: 'none' };
  const { json, problems } = policyFromRegistry(values);
  const reading = checkPolicy(WINDOWS_POLICY_KEY, json);
  if (problems.length === 0) return reading;
  return {
    kind: 'invalid',
    file: WINDOWS_POLICY_KEY,
    problems: [...problems, ...(reading.kind === 'invalid' ? reading.problems : [])],
  };
}

/**
 * <ProgramData>\Ambient Scribe\policy.json, with ProgramData from the registry. Users may create
 * folders in ProgramData and files in a new folder there, so the file's owner and access list must
 * show that only administrators made and can change it. Until they do (a file the user cannot
 * stat, an access list that cannot be read, one a user can write) a user may have made the file:
 * it is ignored, never a stop.
 */
async function windowsProgramDataFile(context: Context): Promise<PolicyReading> {
  const { fs, run } = context.ports;
  const programData = await windowsProgramData(context);
  if (!programData) return { kind: 'none' };
  const path = win32.join(programData, 'Ambient Scribe', 'policy.json');
  try {
    await fs.stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    if (code === 'ENOENT') return { kind: 'none' };
    return ignored(path, `must be readable by the user running the app (${code})`, context);
  }
  const powershell = windowsSystemTool(
    context.env,
    'WindowsPowerShell\\v1.0\\powershell.exe',
    context.ports.toolExists,
  );
  const acl = await run(
    powershell,
    ['-NoProfile', '-NonInteractive', '-Command', '(Get-Acl -LiteralPath $env:SCRIBE_POLICY_PATH).Sddl'],
    {
      env: {
        ...context.env,
        // The path goes in the environment, never into the command: no quoting can break out of it.
        SCRIBE_POLICY_PATH: path,
        // Only Windows' own modules: a Get-Acl in the user's module folder would answer for it.
        PSModulePath: win32.join(win32.dirname(powershell), 'Modules'),
      },
    },
  );
  const sddl = acl.stdout.trim();
  if (acl.exitCode !== 0 || sddl === '')
    return ignored(
      path,
      `must have permissions the app can read (PowerShell's Get-Acl ${acl.failure ?? `exited with ${acl.exitCode}`})`,
      context,
    );
  const verdict = judgeAdminOnlySddl(sddl);
  if (!verdict.ok) return ignored(path, verdict.rule, context);
  return readPolicy([{ path, required: true }], fs.readFile);
}

/** ProgramData's folder as Windows records it (Shell Folders, `Common AppData`), a plain drive path. */
async function windowsProgramData(context: Context): Promise<string | undefined> {
  const output = await regQuery(context, [SHELL_FOLDERS_KEY, '/v', 'Common AppData']);
  const value = output === undefined ? undefined : parseRegQuery(output).get('Common AppData');
  if (value?.type === 'REG_SZ' && /^[A-Za-z]:\\[^\\/]/.test(value.data) && !value.data.includes('..'))
    return value.data;
  context.log.warn('policy: the ProgramData folder is not in the registry; its policy file is not read');
  return undefined;
}

/** `reg query`'s output, or undefined when the key is not there (exit code 1, in every language). */
async function regQuery(context: Context, args: string[]): Promise<string | undefined> {
  const reg = windowsSystemTool(context.env, 'reg.exe', context.ports.toolExists);
  const result = await context.ports.run(reg, ['query', ...args]);
  if (result.exitCode === 0) return result.stdout;
  if (result.exitCode !== 1)
    context.log.warn('policy: the registry could not be read', {
      key: args[0],
      failure: result.failure ?? `exit code ${result.exitCode}`,
    });
  return undefined;
}
