/**
 * Whether only administrators can have written a Windows file, judged from its security
 * descriptor in SDDL (what `(Get-Acl …).Sddl` prints). The policy file in ProgramData sets the
 * service, the partner token and the locked keys, and a new ProgramData folder lets Users create
 * and append to files by default: a file a user created or can write would let that user stand in
 * for IT. Pure, so it is tested with the strings Windows prints.
 */

export type SddlVerdict = { ok: true } | { ok: false; rule: string };

/** BUILTIN\Administrators, SYSTEM and TrustedInstaller: the owners and writers Windows itself uses. */
const ADMIN_TRUSTEES = new Set([
  'BA',
  'S-1-5-32-544',
  'SY',
  'S-1-5-18',
  'S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464',
]);

/** Names for the screen, where Windows has one; any other trustee is shown as its SID. */
const TRUSTEE_NAMES: Record<string, string> = {
  BU: 'BUILTIN\\Users',
  'S-1-5-32-545': 'BUILTIN\\Users',
  WD: 'Everyone',
  'S-1-1-0': 'Everyone',
  AU: 'NT AUTHORITY\\Authenticated Users',
  'S-1-5-11': 'NT AUTHORITY\\Authenticated Users',
  IU: 'NT AUTHORITY\\INTERACTIVE',
  'S-1-5-4': 'NT AUTHORITY\\INTERACTIVE',
  PU: 'BUILTIN\\Power Users',
  CO: 'CREATOR OWNER',
  OW: 'OWNER RIGHTS',
  AN: 'ANONYMOUS LOGON',
  DU: 'Domain Users',
};

/**
 * The rights that let a trustee change what the file says or who may: write and append data, write
 * extended attributes and attributes, delete, write the DACL, take ownership, and the generic and
 * maximum-allowed rights that include them.
 */
const WRITE_MASK =
  0x2 | 0x4 | 0x10 | 0x100 | 0x10000 | 0x40000 | 0x80000 | 0x10000000 | 0x40000000 | 0x2000000;

/**
 * SDDL's two-letter rights as bits. On a file the directory-service letters name file bits (DC is
 * FILE_WRITE_DATA, LC FILE_APPEND_DATA, RP FILE_WRITE_EA, CR FILE_WRITE_ATTRIBUTES, WP
 * FILE_EXECUTE), so they are judged by the bit, not by their directory-service meaning.
 */
const RIGHT_BITS: Record<string, number> = {
  GA: 0x10000000,
  GR: 0x80000000,
  GW: 0x40000000,
  GX: 0x20000000,
  RC: 0x20000,
  SD: 0x10000,
  WD: 0x40000,
  WO: 0x80000,
  CC: 0x1,
  DC: 0x2,
  LC: 0x4,
  SW: 0x8,
  RP: 0x10,
  WP: 0x20,
  DT: 0x40,
  LO: 0x80,
  CR: 0x100,
  FA: 0x1f01ff,
  FR: 0x120089,
  FW: 0x120116,
  FX: 0x1200a0,
  KA: 0xf003f,
  KR: 0x20019,
  KW: 0x20006,
  KX: 0x20019,
  // Mandatory-label rights (no-read-up and so on) grant nothing.
  NR: 0,
  NW: 0,
  NX: 0,
};

/** Allow ACEs, plain, object and callback (conditional) ones: all of them grant what they name. */
const ALLOW_TYPES = new Set(['A', 'OA', 'XA', 'ZA']);

export function judgeAdminOnlySddl(sddl: string): SddlVerdict {
  const { owner, dacl } = parseSddl(sddl.trim());
  if (!owner || !ADMIN_TRUSTEES.has(owner))
    return {
      ok: false,
      rule: `must be owned by administrators, SYSTEM or TrustedInstaller (it is owned by ${owner ? trusteeName(owner) : 'no one Windows names'})`,
    };
  // No DACL at all gives everyone every right.
  if (dacl === undefined || dacl.flags.includes('NO_ACCESS_CONTROL'))
    return {
      ok: false,
      rule: 'must be writable by administrators alone (it has no access list: everyone can)',
    };

  const writers = new Set<string>();
  for (const ace of dacl.aces) {
    const [type = '', flags = '', rights = '', , , trustee = ''] = ace.split(';');
    if (!ALLOW_TYPES.has(type)) continue;
    // Inherit-only ACEs (CREATOR OWNER's on a new folder's files) apply to children, not to this file.
    if (flags.includes('IO')) continue;
    if ((rightsMask(rights) & WRITE_MASK) === 0) continue;
    if (!ADMIN_TRUSTEES.has(trustee)) writers.add(trusteeName(trustee));
  }
  if (writers.size > 0)
    return {
      ok: false,
      rule: `must be writable by administrators alone (${[...writers].join(', ')} can write it)`,
    };
  return { ok: true };
}

interface ParsedSddl {
  owner?: string;
  dacl?: { flags: string; aces: string[] };
}

/**
 * The owner and the DACL, read in order (`O:` owner, `G:` group, `D:` flags and ACEs, `S:` the
 * same for the SACL). Searching for `D:` instead would find it inside a group alias ending in D.
 */
function parseSddl(text: string): ParsedSddl {
  const parsed: ParsedSddl = {};
  let at = 0;
  while (at < text.length) {
    const section = /^([OGDS]):/.exec(text.slice(at))?.[1];
    if (!section) break;
    at += 2;
    if (section === 'O' || section === 'G') {
      const sid = /^(S-1-[0-9-]+|[A-Z]{2})/.exec(text.slice(at))?.[1];
      if (!sid) break;
      if (section === 'O') parsed.owner = sid;
      at += sid.length;
      continue;
    }
    // Only the flags SDDL has, so `D:PS:…` (a protected, empty DACL, then the SACL) is not one word.
    const flags = /^(?:NO_ACCESS_CONTROL|P|AI|AR)*/.exec(text.slice(at))?.[0] ?? '';
    at += flags.length;
    const aces: string[] = [];
    // Each ACE between its parentheses; a conditional ACE's own parentheses stay inside it.
    while (text[at] === '(') {
      let depth = 0;
      const begin = at + 1;
      for (; at < text.length; at++) {
        if (text[at] === '(') depth++;
        else if (text[at] === ')' && --depth === 0) break;
      }
      aces.push(text.slice(begin, at));
      at++;
    }
    if (section === 'D') parsed.dacl = { flags, aces };
  }
  return parsed;
}

/** A rights field as a mask: hex (`0x1200af`), decimal, or two-letter codes. */
function rightsMask(rights: string): number {
  if (/^0x[0-9a-f]+$/i.test(rights)) return Number.parseInt(rights.slice(2), 16);
  if (/^\d+$/.test(rights)) return Number.parseInt(rights, 10);
  let mask = 0;
  for (let i = 0; i < rights.length; i += 2) {
    const bits = RIGHT_BITS[rights.slice(i, i + 2)];
    // A right this judge does not know is taken as a write: better refuse a good file than trust a bad one.
    mask |= bits ?? WRITE_MASK;
  }
  return mask;
}

function trusteeName(sid: string): string {
  return TRUSTEE_NAMES[sid] ?? sid;
}
