import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../shared/settings';
import { createJsonFileStorage } from './json-file-storage';
import { silentLogger } from './ports';
import { createSettingsService } from './settings-service';
import { UserFacingError } from './user-facing-error';

let dir: string;
let file: string;
const open = () => createSettingsService(createJsonFileStorage(file, silentLogger), silentLogger);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scribe-settings-'));
  file = join(dir, 'settings.json');
});

describe('settings in browser mode (a JSON file)', () => {
  it('starts from the defaults when nothing is stored', async () => {
    expect((await open()).get()).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps a change across a restart, in a file only the owner can read', async () => {
    const first = await open();
    await first.update({
      partnerId: 'clinic-7',
      service: { kind: 'url', baseUrl: 'https://scribe.example.org' },
    });

    const second = await open();
    expect(second.get().partnerId).toBe('clinic-7');
    expect(second.get().service).toEqual({ kind: 'url', baseUrl: 'https://scribe.example.org' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses a plain-http remote URL with a sentence naming the field, and stores nothing', async () => {
    const settings = await open();
    const attempt = settings.update({ service: { kind: 'url', baseUrl: 'http://scribe.example.org' } });
    await expect(attempt).rejects.toBeInstanceOf(UserFacingError);
    await expect(attempt).rejects.toMatchObject({
      fields: [
        {
          field: 'service.baseUrl',
          message: expect.stringMatching(/^Service URL must be a full https:\/\//),
        },
      ],
    });
    expect(settings.get()).toEqual(DEFAULT_SETTINGS);
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('allows plain http only for loopback addresses (the built-in sandbox, local tests)', async () => {
    const settings = await open();
    await settings.update({ service: { kind: 'url', baseUrl: 'http://127.0.0.1:8080' } });
    expect(settings.get().service).toEqual({ kind: 'url', baseUrl: 'http://127.0.0.1:8080' });
  });

  it('keeps the valid settings of a file that has one invalid value', async () => {
    await writeFile(file, JSON.stringify({ partnerId: 'clinic-7', authModel: 'kerberos', theme: 'dark' }));
    const settings = (await open()).get();
    expect(settings.partnerId).toBe('clinic-7');
    expect(settings.theme).toBe('dark');
    expect(settings.authModel).toBe(DEFAULT_SETTINGS.authModel);
  });

  it('sets an unreadable file aside instead of overwriting it', async () => {
    await writeFile(file, '{"partnerId": "clin');
    const settings = await open();
    expect(settings.get()).toEqual(DEFAULT_SETTINGS);
    const kept = (await readdir(dir)).filter((name) => /^settings\.damaged-.*\.json$/.test(name));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(dir, kept[0] as string), 'utf8')).toBe('{"partnerId": "clin');
  });

  it('applies quick successive changes in order', async () => {
    const settings = await open();
    await Promise.all([settings.update({ partnerId: 'a' }), settings.update({ providerId: 'dr-b' })]);
    const reopened = (await open()).get();
    expect(reopened.providerId).toBe('dr-b');
  });
});

describe('settings under the organisation’s policy', () => {
  const policy = {
    serviceUrl: 'https://scribe.example.org',
    partnerId: 'clinic7',
    authModel: 'bearer' as const,
    providerId: 'dr-{username}',
    idleLockMinutes: 5,
    voiceSensitivity: 'high' as const,
    locked: ['serviceUrl', 'partnerId', 'authModel', 'providerId'] as const,
  };
  const managed = () =>
    createSettingsService(createJsonFileStorage(file, silentLogger), silentLogger, {
      policy: { ...policy, locked: [...policy.locked] },
      username: 'jdoe',
    });

  it('a fresh laptop starts with the policy’s service, its first run done, {username} filled in', async () => {
    const settings = (await managed()).get();
    expect(settings).toMatchObject({
      service: { kind: 'url', baseUrl: 'https://scribe.example.org' },
      partnerId: 'clinic7',
      authModel: 'bearer',
      providerId: 'dr-jdoe',
      idleLockMinutes: 5,
      voiceDetection: { positiveSpeechThreshold: 0.1, negativeSpeechThreshold: 0.05 },
      firstRunComplete: true,
    });
  });

  it('refuses a change to a locked setting by name, and keeps the clinician’s own changes to the rest', async () => {
    const settings = await managed();
    expect(settings.locked).toEqual(['service', 'partnerId', 'authModel', 'providerId']);
    const refused = settings.update({ partnerId: 'other', idleLockMinutes: 15 });
    await expect(refused).rejects.toBeInstanceOf(UserFacingError);
    await expect(refused).rejects.toMatchObject({
      fields: [
        { field: 'partnerId', message: 'Partner ID is set by your organisation and cannot be changed here.' },
      ],
    });
    // The same value again is no change: a whole settings page can be saved.
    await settings.update({ partnerId: 'clinic7', idleLockMinutes: 15 });
    expect((await managed()).get()).toMatchObject({ idleLockMinutes: 15, partnerId: 'clinic7' });
  });

  it('a locked setting wins over what was stored before the policy came', async () => {
    const before = await open();
    await before.update({
      partnerId: 'typed-by-hand',
      service: { kind: 'builtin-sandbox' },
      idleLockMinutes: 20,
    });
    const settings = (await managed()).get();
    expect(settings.partnerId).toBe('clinic7');
    expect(settings.service).toEqual({ kind: 'url', baseUrl: 'https://scribe.example.org' });
    // Not locked: the clinician's value stays.
    expect(settings.idleLockMinutes).toBe(20);
  });
});
