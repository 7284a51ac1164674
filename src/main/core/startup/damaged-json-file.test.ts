import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../ports';
import { setAsideIfDamaged } from './damaged-json-file';
import { checkSettingsFile } from './settings-file-check';

let dir: string;
let lines: { level: string; message: string; fields?: Record<string, unknown> }[];
const log: Logger = {
  info: (message, fields) => lines.push({ level: 'info', message, ...(fields ? { fields } : {}) }),
  warn: (message, fields) => lines.push({ level: 'warn', message, ...(fields ? { fields } : {}) }),
  error: (message, fields) => lines.push({ level: 'error', message, ...(fields ? { fields } : {}) }),
};
// 2026-11-24T08:01:02.345Z
const AT = Date.UTC(2026, 10, 24, 8, 1, 2, 345);
const now = () => AT;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'scribe-damaged-'));
  lines = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** What electron-store's settings.json looks like cut short by a power cut mid-write. */
const TRUNCATED = '{\n  "settings": {\n    "partnerId": "clinic-7",\n    "service": {"kind": "u';

describe('setAsideIfDamaged', () => {
  it('moves a truncated file aside under a name that says so, keeps every byte, and logs no contents', async () => {
    const file = join(dir, 'settings.json');
    await writeFile(file, TRUNCATED);

    const setAside = await setAsideIfDamaged(file, log, now);

    const keptAs = join(dir, 'settings.damaged-2026-11-24T08-01-02Z.json');
    expect(setAside).toEqual({ keptAs });
    expect(await readdir(dir)).toEqual(['settings.damaged-2026-11-24T08-01-02Z.json']);
    expect(await readFile(keptAs, 'utf8')).toBe(TRUNCATED);
    expect(lines).toEqual([
      {
        level: 'warn',
        message: 'a damaged file was set aside; starting from defaults',
        fields: { reason: 'not valid JSON', keptAs },
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('clinic-7');
  });

  it('never replaces an earlier damaged copy, even one set aside in the same second', async () => {
    const file = join(dir, 'settings.json');
    await writeFile(file, 'first damage {');
    await setAsideIfDamaged(file, log, now);
    await writeFile(file, '');
    const second = await setAsideIfDamaged(file, log, now);

    expect(second?.keptAs).toBe(join(dir, 'settings.damaged-2026-11-24T08-01-02Z-1.json'));
    expect(await readFile(join(dir, 'settings.damaged-2026-11-24T08-01-02Z.json'), 'utf8')).toBe(
      'first damage {',
    );
    expect(lines.map((line) => line.fields?.reason)).toEqual(['not valid JSON', 'empty']);
  });

  it('sets aside JSON that is not an object (the next save would overwrite it)', async () => {
    const file = join(dir, 'browser-settings.json');
    for (const text of ['null', '[1, 2]', '"settings"']) {
      await writeFile(file, text);
      expect(await setAsideIfDamaged(file, log, now), text).toBeDefined();
    }
    expect(lines.map((line) => line.fields?.reason)).toEqual([
      'not a JSON object',
      'not a JSON object',
      'not a JSON object',
    ]);
  });

  it('leaves a good file, one with a byte order mark, and a missing file alone', async () => {
    const file = join(dir, 'settings.json');
    expect(await setAsideIfDamaged(file, log, now)).toBeUndefined();
    await writeFile(file, '\uFEFF{"settings": {"theme": "dark"}}');
    expect(await setAsideIfDamaged(file, log, now)).toBeUndefined();
    expect(await readdir(dir)).toEqual(['settings.json']);
    expect(lines).toEqual([]);
  });
});

describe('checkSettingsFile', () => {
  it('gives the clinician one notice naming the kept file and the next step, and none for a good file', async () => {
    const file = join(dir, 'settings.json');
    await writeFile(file, '{"settings": {}}');
    expect(await checkSettingsFile(file, log)).toEqual([]);

    await writeFile(file, TRUNCATED);
    const notices = await checkSettingsFile(file, log);

    expect(notices).toHaveLength(1);
    const [kept] = (await readdir(dir)).filter((name) => name.startsWith('settings.damaged-'));
    expect(notices[0]).toMatch(
      /^Your settings file was damaged and was set aside; the app started with default settings\. Choose your documentation service and enter its settings again/,
    );
    expect(notices[0]).toContain(`kept as ${kept}`);
    expect(notices[0]).not.toContain('clinic-7');
  });
});
