import { describe, expect, it } from 'vitest';
import { parseRegQuery, policyFromRegistry } from './reg-query';

// `reg.exe query "HKLM\SOFTWARE\Policies\Ambient Scribe"` as Windows prints it (CRLF, four-space
// columns, REG_MULTI_SZ entries joined by a literal \0, then the key's subkeys as paths).
const OUTPUT = [
  '',
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Ambient Scribe',
  '    serviceUrl    REG_SZ    https://scribe.example.org',
  '    partnerId    REG_SZ    clinic7',
  '    authModel    REG_SZ    bearer',
  '    providerId    REG_SZ    dr-{username}',
  '    demoAllowed    REG_DWORD    0x0',
  '    notificationReceiver    REG_DWORD    0x1',
  '    idleLockMinutes    REG_DWORD    0xf',
  '    noteSections    REG_MULTI_SZ    CHIEF_COMPLAINT\\0PLAN',
  '    locked    REG_MULTI_SZ    serviceUrl\\0partnerId\\0authModel',
  '    oidcClientId    REG_SZ    ',
  '',
  'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Ambient Scribe\\Later',
  '',
].join('\r\n');

describe('the registry policy from reg query', () => {
  it('reads each value with its type and data, and not a subkey’s', () => {
    const values = parseRegQuery(OUTPUT);
    expect([...values.keys()]).toEqual([
      'serviceUrl',
      'partnerId',
      'authModel',
      'providerId',
      'demoAllowed',
      'notificationReceiver',
      'idleLockMinutes',
      'noteSections',
      'locked',
      'oidcClientId',
    ]);
    expect(values.get('serviceUrl')).toEqual({ type: 'REG_SZ', data: 'https://scribe.example.org' });
    expect(values.get('idleLockMinutes')).toEqual({ type: 'REG_DWORD', data: '0xf' });
    expect(values.get('locked')).toEqual({
      type: 'REG_MULTI_SZ',
      data: 'serviceUrl\\0partnerId\\0authModel',
    });
    expect(values.get('oidcClientId')).toEqual({ type: 'REG_SZ', data: '' });
    // Names and data with spaces in them; the default value is not a key; a subkey's values are not read.
    const spaced = parseRegQuery(
      'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Ambient Scribe\n    (Default)    REG_SZ    x\n    Odd Name    REG_SZ    Dr  Jane Smith\n\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Ambient Scribe\\Sub\n    partnerId    REG_SZ    sub\n',
    );
    expect([...spaced]).toEqual([['Odd Name', { type: 'REG_SZ', data: 'Dr  Jane Smith' }]]);
  });

  it('makes the policy object: REG_SZ text, REG_DWORD switches and numbers, REG_MULTI_SZ lists', () => {
    expect(policyFromRegistry(parseRegQuery(OUTPUT))).toEqual({
      json: {
        serviceUrl: 'https://scribe.example.org',
        partnerId: 'clinic7',
        authModel: 'bearer',
        providerId: 'dr-{username}',
        demoAllowed: false,
        notificationReceiver: true,
        idleLockMinutes: 15,
        noteSections: ['CHIEF_COMPLAINT', 'PLAN'],
        locked: ['serviceUrl', 'partnerId', 'authModel'],
        oidcClientId: '',
      },
      problems: [],
    });
  });

  it('takes names in any case, a fraction as REG_SZ, and keeps an unknown name for the policy’s check', () => {
    const values = parseRegQuery(
      [
        'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Ambient Scribe',
        '    ServiceURL    REG_SZ    https://scribe.example.org',
        '    autoPauseSeconds    REG_SZ    2.5',
        '    AllowLocalPolicy    REG_DWORD    0x1',
        '    colour    REG_SZ    blue',
      ].join('\r\n'),
    );
    expect(policyFromRegistry(values)).toEqual({
      json: {
        serviceUrl: 'https://scribe.example.org',
        autoPauseSeconds: 2.5,
        allowLocalPolicy: true,
        colour: 'blue',
      },
      problems: [],
    });
  });

  it('names each value whose registry type does not fit its key, and leaves it out', () => {
    const values = parseRegQuery(
      [
        'HKEY_LOCAL_MACHINE\\SOFTWARE\\Policies\\Ambient Scribe',
        '    demoAllowed    REG_SZ    false',
        '    notificationReceiver    REG_DWORD    0x2',
        '    locked    REG_SZ    serviceUrl',
        '    idleLockMinutes    REG_SZ    ten',
        '    serviceUrl    REG_DWORD    0x1',
        '    partnerId    REG_SZ    clinic\uFFFD',
        '    authModel    REG_SZ    bearer',
      ].join('\r\n'),
    );
    const { json, problems } = policyFromRegistry(values);
    expect(json).toEqual({ authModel: 'bearer' });
    expect(Object.fromEntries(problems.map((p) => [p.key, p.rule]))).toEqual({
      demoAllowed: 'must be a REG_DWORD value, 1 for true or 0 for false',
      notificationReceiver: 'must be a REG_DWORD value, 1 for true or 0 for false',
      locked: 'must be a REG_MULTI_SZ value, one entry a line',
      idleLockMinutes: 'must be a REG_DWORD value (or a REG_SZ holding a number, for a fraction)',
      serviceUrl: 'must be a REG_SZ string value',
      partnerId: 'must be plain ASCII in the registry (reg.exe could not print it exactly)',
    });
  });
});
