import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { policySchema, type Policy } from '../../../shared/policy';

/** Where a policy may come from, first match wins (issue 18). */
export interface PolicySource {
  path: string;
  /** `--policy FILE` and AMBIENT_SCRIBE_POLICY must exist; the machine location may be absent. */
  required: boolean;
}

/**
 * The places a policy is looked for, in order: `--policy FILE`, then AMBIENT_SCRIBE_POLICY (tests,
 * portable installs), then the machine-wide location of this operating system.
 */
export function policySources(options: {
  argument?: string | undefined;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}): PolicySource[] {
  const sources: PolicySource[] = [];
  if (options.argument) sources.push({ path: options.argument, required: true });
  if (options.env.AMBIENT_SCRIBE_POLICY)
    sources.push({ path: options.env.AMBIENT_SCRIBE_POLICY, required: true });
  sources.push({ path: machinePolicyPath(options.platform, options.env), required: false });
  return sources;
}

export function machinePolicyPath(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  if (platform === 'win32')
    return join(env.ProgramData ?? 'C:\\ProgramData', 'Ambient Scribe', 'policy.json').replaceAll('/', '\\');
  if (platform === 'darwin') return '/Library/Application Support/Ambient Scribe/policy.json';
  return '/etc/ambient-scribe/policy.json';
}

/** One broken rule: the key (a path such as `locked.2`, or `(file)` for the file itself) and the rule. */
export interface PolicyProblem {
  key: string;
  rule: string;
}

export type PolicyReading =
  | { kind: 'none' }
  | { kind: 'policy'; file: string; policy: Policy }
  | { kind: 'invalid'; file: string; problems: PolicyProblem[] };

/**
 * Reads the first policy there is. A policy that cannot be read, is not JSON or breaks a rule is
 * `invalid` with every problem named, and none of it applies: the app stops at a screen for IT.
 */
export async function readPolicy(sources: readonly PolicySource[]): Promise<PolicyReading> {
  for (const source of sources) {
    let text: string;
    try {
      text = await readFile(source.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && !source.required) continue;
      const rule =
        code === 'ENOENT'
          ? 'must exist (the path was given to the app, but there is no file there)'
          : `must be readable by the user running the app (${code ?? 'unreadable'})`;
      return { kind: 'invalid', file: source.path, problems: [{ key: '(file)', rule }] };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      // Where, never what: V8's message can quote the text, and the text may hold a partner token.
      const position = /position (\d+)/.exec((error as Error).message)?.[1];
      return {
        kind: 'invalid',
        file: source.path,
        problems: [
          {
            key: '(file)',
            rule: `must be JSON${position ? ` (the text breaks off near character ${position})` : ''}`,
          },
        ],
      };
    }
    const checked = policySchema.safeParse(json);
    if (checked.success) return { kind: 'policy', file: source.path, policy: checked.data };
    return {
      kind: 'invalid',
      file: source.path,
      problems: checked.error.issues.map((issue) => ({
        key: issue.path.join('.') || '(file)',
        rule:
          issue.code === 'unrecognized_keys'
            ? `is not a key a policy may set (${issue.keys.join(', ')})`
            : issue.path.length === 0
              ? 'must be a JSON object of settings'
              : issue.message,
      })),
    };
  }
  return { kind: 'none' };
}

/** One sentence for the screen and the log: the file, then each key with its rule. */
export function describePolicyProblems(file: string, problems: readonly PolicyProblem[]): string {
  return `The policy file ${file} was not applied: ${problems.map((p) => `${p.key} ${p.rule}`).join('; ')}.`;
}

/** `--policy FILE` or `--policy=FILE` among the app's arguments (Electron passes its own too). */
export function policyArgument(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--policy') return argv[i + 1];
    if (arg.startsWith('--policy=')) return arg.slice('--policy='.length);
  }
  return undefined;
}

/** The operating system's user name for `{username}` ('' where the system has none to give). */
export function osUsername(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? '';
  }
}
