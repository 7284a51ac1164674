import type { Policy } from '../../../shared/policy';
import type { PolicyProblem } from './policy-file';

/**
 * The Windows registry's policy (HKLM\SOFTWARE\Policies\Ambient Scribe, as Group Policy and
 * Intune write it) read from `reg.exe query` output: one value per policy key, named as the key.
 * Pure, so it is tested with the text reg.exe prints.
 */

export interface RegValue {
  /** REG_SZ, REG_DWORD, REG_MULTI_SZ, …, as reg.exe names it. */
  type: string;
  /** As printed: REG_DWORD as `0x1`, REG_MULTI_SZ with its entries joined by a literal `\0`. */
  data: string;
}

/**
 * The values of the queried key, by name. reg.exe prints the key's path, then each value as four
 * spaces, the name, four spaces, the type, four spaces and the data; subkeys follow as paths.
 */
export function parseRegQuery(output: string): Map<string, RegValue> {
  const values = new Map<string, RegValue>();
  let inKey = false;
  for (const line of output.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    if (!line.startsWith(' ')) {
      // The queried key's path comes first; the next path is a subkey, whose values are not asked for.
      if (inKey) break;
      inKey = true;
      continue;
    }
    const value = /^ {4}(.+?) {4}(REG_[A-Z_]+)(?: {4}(.*))?$/.exec(line);
    if (!value) continue;
    const [, name = '', type = '', data = ''] = value;
    // The unnamed default value: not a policy key.
    if (name === '(Default)') continue;
    values.set(name, { type, data });
  }
  return values;
}

type Kind = 'text' | 'switch' | 'number' | 'list';

/** How each policy key is stored in the registry (the Policy type makes this list complete). */
const KINDS: Record<keyof Policy, Kind> = {
  serviceUrl: 'text',
  partnerId: 'text',
  authModel: 'text',
  oidcIssuer: 'text',
  oidcClientId: 'text',
  partnerToken: 'text',
  providerId: 'text',
  demoAllowed: 'switch',
  notificationReceiver: 'switch',
  audioRetentionDays: 'number',
  autoPauseSeconds: 'number',
  voiceSensitivity: 'text',
  idleLockMinutes: 'number',
  noteTemplate: 'text',
  noteSections: 'list',
  allowLocalPolicy: 'switch',
  linksMaySwitchProvider: 'switch',
  consent: 'text',
  consentWording: 'text',
  visitAudio: 'text',
  checksBeforeFinish: 'text',
  replayAudio: 'switch',
  locked: 'list',
};

const RULES: Record<Kind, string> = {
  text: 'must be a REG_SZ string value',
  switch: 'must be a REG_DWORD value, 1 for true or 0 for false',
  number: 'must be a REG_DWORD value (or a REG_SZ holding a number, for a fraction)',
  list: 'must be a REG_MULTI_SZ value, one entry a line',
};

/**
 * The policy object the values make, for the policy's own checks, and the values whose registry
 * type does not fit their key. A name that is no policy key is kept as text, so the policy's check
 * names it as it names an unknown key in a file.
 */
export function policyFromRegistry(values: ReadonlyMap<string, RegValue>): {
  json: Record<string, unknown>;
  problems: PolicyProblem[];
} {
  const json: Record<string, unknown> = {};
  const problems: PolicyProblem[] = [];
  for (const [name, value] of values) {
    // Registry value names are case-insensitive; IT's `ServiceUrl` is the key `serviceUrl`.
    const key = (Object.keys(KINDS) as (keyof Policy)[]).find((k) => k.toLowerCase() === name.toLowerCase());
    if (!key) {
      json[name] = value.data;
      continue;
    }
    // reg.exe prints in the console's code page, which Node reads as UTF-8: a character outside
    // ASCII may arrive as U+FFFD, and a policy read wrongly must not apply as if it were right.
    if (value.data.includes('\uFFFD')) {
      problems.push({
        key,
        rule: 'must be plain ASCII in the registry (reg.exe could not print it exactly)',
      });
      continue;
    }
    const converted = convert(KINDS[key], value);
    if (converted === undefined) problems.push({ key, rule: RULES[KINDS[key]] });
    else json[key] = converted;
  }
  return { json, problems };
}

function convert(kind: Kind, { type, data }: RegValue): unknown {
  const dword = type === 'REG_DWORD' || type === 'REG_QWORD' ? Number.parseInt(data, 16) : undefined;
  switch (kind) {
    case 'text':
      return type === 'REG_SZ' ? data : undefined;
    case 'switch':
      return dword === 1 ? true : dword === 0 ? false : undefined;
    case 'number':
      if (dword !== undefined && !Number.isNaN(dword)) return dword;
      return type === 'REG_SZ' && data.trim() !== '' && Number.isFinite(Number(data))
        ? Number(data)
        : undefined;
    case 'list':
      return type === 'REG_MULTI_SZ' ? data.split('\\0').filter((entry) => entry !== '') : undefined;
  }
}
