import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { policySchema, type Policy } from '../../../shared/policy';

/** Where a policy may come from, first match wins (issue 18). */
export interface PolicySource {
  path: string;
  /** `--policy FILE` and AMBIENT_SCRIBE_POLICY must exist; the machine location may be absent. */
  required: boolean;
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
export async function readPolicy(
  sources: readonly PolicySource[],
  readText: (path: string) => Promise<string> = (path) => readFile(path, 'utf8'),
): Promise<PolicyReading> {
  for (const source of sources) {
    let text: string;
    try {
      text = await readText(source.path);
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
    return checkPolicy(source.path, json);
  }
  return { kind: 'none' };
}

/**
 * A policy's keys checked by the app's own rules, wherever they came from (a JSON file, the
 * Windows registry, a macOS profile): `file` names that place for IT.
 */
export function checkPolicy(file: string, json: unknown): PolicyReading {
  const checked = policySchema.safeParse(json);
  if (checked.success) return { kind: 'policy', file, policy: checked.data };
  return {
    kind: 'invalid',
    file,
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

/** One sentence for the screen and the log: the file, then each key with its rule. */
export function describePolicyProblems(file: string, problems: readonly PolicyProblem[]): string {
  return `The policy file ${file} was not applied: ${problems.map((p) => `${p.key} ${p.rule}`).join('; ')}.`;
}

/** The operating system's user name for `{username}` ('' where the system has none to give). */
export function osUsername(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? '';
  }
}
