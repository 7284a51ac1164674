import { describe, expect, it } from 'vitest';
import { judgeAdminOnlySddl } from './sddl';

// Security descriptors as `(Get-Acl -LiteralPath …).Sddl` prints them on Windows 10 and 11.
const TRUSTED_INSTALLER = 'S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464';
const A_USER = 'S-1-5-21-1004336348-1177238915-682003330-1001';

/** A file an administrator created in C:\ProgramData\Ambient Scribe: ProgramData's file ACEs, inherited. */
const GOOD_FILE = 'O:BAG:DUD:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)(A;ID;0x1200a9;;;BU)';
const WRITE_RULE = 'must be writable by administrators alone';
const OWNER_RULE = 'must be owned by administrators, SYSTEM or TrustedInstaller';

describe('a ProgramData policy file only administrators can have written', () => {
  it('is trusted when owned by administrators, SYSTEM or TrustedInstaller and writable by them alone', () => {
    expect(judgeAdminOnlySddl(GOOD_FILE)).toEqual({ ok: true });
    expect(judgeAdminOnlySddl(`${GOOD_FILE}\r\n`)).toEqual({ ok: true });
    expect(judgeAdminOnlySddl('O:SYG:SYD:PAI(A;;FA;;;SY)(A;;FA;;;BA)(A;;FRFX;;;BU)')).toEqual({ ok: true });
    expect(
      judgeAdminOnlySddl(
        `O:${TRUSTED_INSTALLER}G:${TRUSTED_INSTALLER}D:PAI(A;;FA;;;${TRUSTED_INSTALLER})(A;;0x1200a9;;;BA)(A;;0x1200a9;;;BU)`,
      ),
    ).toEqual({ ok: true });
    expect(
      judgeAdminOnlySddl('O:S-1-5-32-544G:S-1-5-18D:(A;;FA;;;S-1-5-32-544)(A;;0x1200a9;;;S-1-5-32-545)'),
    ).toEqual({ ok: true });
    // Read and execute spelled in letters: WP is FILE_EXECUTE on a file, not a write.
    expect(judgeAdminOnlySddl('O:BAG:SYD:(A;;FA;;;BA)(A;;CCSWWPLORC;;;BU)')).toEqual({ ok: true });
    // A deny ACE grants nothing.
    expect(judgeAdminOnlySddl('O:BAG:SYD:(D;;FA;;;BU)(A;;FA;;;BA)')).toEqual({ ok: true });
  });

  it('is refused where Users may write or append, as a new ProgramData subfolder lets them', () => {
    // Read and execute plus write data and append data (0x2 | 0x4).
    expect(judgeAdminOnlySddl('O:BAG:DUD:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)(A;OICIID;0x1200af;;;BU)')).toEqual({
      ok: false,
      rule: `${WRITE_RULE} (BUILTIN\\Users can write it)`,
    });
    // ProgramData's own "create files, append, write attributes" ACE for Users, as inherited.
    expect(
      judgeAdminOnlySddl(
        'O:BAG:DUD:AI(A;OICIID;FA;;;SY)(A;OICIID;FA;;;BA)(A;OICIIOID;GA;;;CO)(A;OICIID;0x1200a9;;;BU)(A;CIID;DCLCRPCR;;;BU)',
      ),
    ).toEqual({ ok: false, rule: `${WRITE_RULE} (BUILTIN\\Users can write it)` });
  });

  it('is refused when a user owns it: the user created it before IT did', () => {
    expect(
      judgeAdminOnlySddl(
        `O:${A_USER}G:${A_USER.replace(/-1001$/, '-513')}D:AI(A;ID;FA;;;SY)(A;ID;FA;;;BA)(A;ID;FA;;;${A_USER})(A;ID;0x1200a9;;;BU)`,
      ),
    ).toEqual({ ok: false, rule: `${OWNER_RULE} (it is owned by ${A_USER})` });
    expect(judgeAdminOnlySddl('O:BUG:BUD:(A;;FA;;;BA)')).toEqual({
      ok: false,
      rule: `${OWNER_RULE} (it is owned by BUILTIN\\Users)`,
    });
  });

  it('is refused when Everyone (or any other trustee) has full control or any write right', () => {
    expect(judgeAdminOnlySddl('O:BAG:SYD:PAI(A;;FA;;;WD)(A;;FA;;;SY)(A;;FA;;;BA)')).toEqual({
      ok: false,
      rule: `${WRITE_RULE} (Everyone can write it)`,
    });
    expect(judgeAdminOnlySddl('O:BAG:SYD:(A;;GW;;;AU)(A;;0x10000;;;IU)')).toEqual({
      ok: false,
      rule: `${WRITE_RULE} (NT AUTHORITY\\Authenticated Users, NT AUTHORITY\\INTERACTIVE can write it)`,
    });
    expect(judgeAdminOnlySddl(`O:BAG:SYD:(A;;WDWO;;;${A_USER})`)).toMatchObject({ ok: false });
    expect(judgeAdminOnlySddl('O:BAG:SYD:(A;;0x10000000;;;BU)')).toMatchObject({ ok: false });
    // A conditional ACE grants what it names (its condition is not evaluated here).
    expect(judgeAdminOnlySddl('O:BAG:SYD:(A;;FA;;;BA)(XA;;FA;;;WD;(Member_of {SID(BA)}))')).toEqual({
      ok: false,
      rule: `${WRITE_RULE} (Everyone can write it)`,
    });
  });

  it('ignores an inherit-only CREATOR OWNER ACE, which applies to new children and not to this file', () => {
    const withCreatorOwner = 'O:BAG:SYD:PAI(A;OICIIO;FA;;;CO)(A;;FA;;;SY)(A;;FA;;;BA)(A;;0x1200a9;;;BU)';
    expect(judgeAdminOnlySddl(withCreatorOwner)).toEqual({ ok: true });
    // The same ACE without IO does apply, and is refused.
    expect(judgeAdminOnlySddl(withCreatorOwner.replace('OICIIO', 'OICI'))).toEqual({
      ok: false,
      rule: `${WRITE_RULE} (CREATOR OWNER can write it)`,
    });
  });

  it('refuses what it cannot read: no DACL, a null DACL, no owner, a right it does not know', () => {
    expect(judgeAdminOnlySddl('O:BAG:SYD:NO_ACCESS_CONTROL')).toEqual({
      ok: false,
      rule: `${WRITE_RULE} (it has no access list: everyone can)`,
    });
    expect(judgeAdminOnlySddl('O:BAG:SY')).toMatchObject({ ok: false });
    expect(judgeAdminOnlySddl('G:SYD:(A;;FA;;;BA)')).toEqual({
      ok: false,
      rule: `${OWNER_RULE} (it is owned by no one Windows names)`,
    });
    expect(judgeAdminOnlySddl('O:BAG:SYD:(A;;ZZ;;;BU)')).toMatchObject({ ok: false });
  });

  it('reads the DACL after a group alias that ends in D, and before a SACL', () => {
    expect(judgeAdminOnlySddl('O:BAG:DUD:(A;;FA;;;WD)')).toEqual({
      ok: false,
      rule: `${WRITE_RULE} (Everyone can write it)`,
    });
    expect(judgeAdminOnlySddl('O:BAG:SYD:P(A;;FA;;;BA)S:AI(AU;SA;FA;;;WD)')).toEqual({ ok: true });
    expect(judgeAdminOnlySddl('O:BAG:SYD:PS:(AU;SA;FA;;;WD)')).toEqual({ ok: true });
  });
});
