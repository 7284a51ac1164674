import { mkdtemp, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPolicy, describePolicyProblems, readPolicy } from './policy-file';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scribe-policy-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function policyFile(content: unknown): Promise<string> {
  const file = join(dir, 'policy.json');
  await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('reading a policy', () => {
  it('reads through the reader it is given, and checks a policy from anywhere by the same rules', async () => {
    const read = async (path: string) => (path === '/given.json' ? '{"partnerId": "clinic7"}' : '{}');
    expect(await readPolicy([{ path: '/given.json', required: true }], read)).toEqual({
      kind: 'policy',
      file: '/given.json',
      policy: { partnerId: 'clinic7' },
    });
    expect(checkPolicy('HKLM\\SOFTWARE\\Policies\\Ambient Scribe', { partnerId: '' })).toEqual({
      kind: 'invalid',
      file: 'HKLM\\SOFTWARE\\Policies\\Ambient Scribe',
      problems: [{ key: 'partnerId', rule: 'must not be empty' }],
    });
  });

  it('applies nothing when there is none at the machine location', async () => {
    expect(await readPolicy([{ path: join(dir, 'absent.json'), required: false }])).toEqual({ kind: 'none' });
  });

  it('reads a valid policy for a bearer partner', async () => {
    const file = await policyFile({
      serviceUrl: 'https://scribe.example.org',
      partnerId: 'clinic7',
      authModel: 'bearer',
      partnerToken: 'partner-token-of-clinic-seven',
      providerId: '{username}',
      demoAllowed: false,
      locked: ['serviceUrl', 'partnerId', 'authModel'],
    });
    expect(await readPolicy([{ path: file, required: true }])).toMatchObject({
      kind: 'policy',
      file,
      policy: { partnerId: 'clinic7', locked: ['serviceUrl', 'partnerId', 'authModel'] },
    });
  });

  it('names the file, each key and its rule, and applies none of it', async () => {
    const file = await policyFile({
      serviceUrl: 'http://scribe.example.org',
      authModel: 'oauth',
      idleLockMinutes: 0,
      partnerTokn: 'typo',
      locked: ['serviceUrl', 'partnerToken'],
    });
    const reading = await readPolicy([{ path: file, required: true }]);
    expect(reading.kind).toBe('invalid');
    if (reading.kind !== 'invalid') return;
    const byKey = Object.fromEntries(reading.problems.map((p) => [p.key, p.rule]));
    expect(byKey.serviceUrl).toMatch(/^must be a full https:\/\//);
    expect(byKey.authModel).toBe('must be one of standard, bearer, single_auth_token');
    expect(byKey.idleLockMinutes).toBe('must be between 1 and 60 minutes');
    expect(byKey['(file)']).toBe('is not a key a policy may set (partnerTokn)');
    expect(byKey['locked.1']).toMatch(/^must name keys of this file \(.+\); "partnerToken" is not one$/);
    expect(describePolicyProblems(file, reading.problems)).toMatch(
      new RegExp(`^The policy file ${file} was not applied: serviceUrl must be a full https://`),
    );
  });

  it('a file that is not JSON, missing where it was pointed at, or unreadable is named as such', async () => {
    const broken = await policyFile('{"partnerToken": "partner-token-of-clinic-seven" "x": 1}');
    const reading = await readPolicy([{ path: broken, required: true }]);
    expect(reading).toMatchObject({
      kind: 'invalid',
      problems: [
        {
          key: '(file)',
          rule: expect.stringMatching(/^must be JSON \(the text breaks off near character \d+\)$/),
        },
      ],
    });
    // Where, never what: nothing of the file's text is repeated.
    expect(JSON.stringify(reading)).not.toContain('partner-token-of');
    expect(await readPolicy([{ path: join(dir, 'nope.json'), required: true }])).toMatchObject({
      kind: 'invalid',
      problems: [{ key: '(file)', rule: expect.stringMatching(/^must exist/) }],
    });
    expect(await readPolicy([{ path: await policyFile('[1]'), required: true }])).toMatchObject({
      kind: 'invalid',
      problems: [{ key: '(file)', rule: 'must be a JSON object of settings' }],
    });
    if (process.getuid?.() !== 0) {
      const locked = await policyFile('{}');
      await chmod(locked, 0o000);
      expect(await readPolicy([{ path: locked, required: true }])).toMatchObject({
        kind: 'invalid',
        problems: [{ key: '(file)', rule: expect.stringMatching(/^must be readable/) }],
      });
    }
  });
});
