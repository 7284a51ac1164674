import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultDataDirectory,
  desktopDataDirectoryOverride,
  ensurePrivateDataDirectory,
} from './data-directory';

describe('the app data directory (same place as Electron’s userData)', () => {
  it('follows each platform’s convention', () => {
    expect(defaultDataDirectory({}, 'linux')).toBe(`${homedir()}/.config/Ambient Scribe`);
    expect(defaultDataDirectory({ XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Ambient Scribe');
    expect(defaultDataDirectory({}, 'darwin')).toBe(
      `${homedir()}/Library/Application Support/Ambient Scribe`,
    );
    expect(defaultDataDirectory({ APPDATA: 'C:/Users/a/AppData/Roaming' }, 'win32')).toMatch(
      /Roaming.Ambient Scribe$/,
    );
  });
  it('lets SCRIBE_DATA_DIR override it', () => {
    expect(defaultDataDirectory({ SCRIBE_DATA_DIR: '/data/scribe' }, 'linux')).toBe('/data/scribe');
  });
  it('the desktop app honours SCRIBE_DATA_DIR only when it is not packaged (development, tests)', () => {
    expect(desktopDataDirectoryOverride({ SCRIBE_DATA_DIR: '/data/scribe' }, false)).toBe('/data/scribe');
    expect(desktopDataDirectoryOverride({ SCRIBE_DATA_DIR: '\\\\host\\share' }, true)).toBeUndefined();
    expect(desktopDataDirectoryOverride({ SCRIBE_DATA_DIR: '' }, false)).toBeUndefined();
    expect(desktopDataDirectoryOverride({}, false)).toBeUndefined();
  });
});

// Skipped on Windows: it has no POSIX permission bits (the profile folder is the user's own).
describe.skipIf(process.platform === 'win32')('the data directory at launch', () => {
  it('is created 0700, and an existing one that others could read is narrowed to 0700', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'scribe-data-dir-'));
    try {
      const fresh = join(parent, 'fresh', 'Ambient Scribe');
      await ensurePrivateDataDirectory(fresh);
      expect((await stat(fresh)).mode & 0o777).toBe(0o700);

      const old = join(parent, 'old');
      await mkdir(old, { mode: 0o755 });
      await chmod(old, 0o755);
      await ensurePrivateDataDirectory(old);
      expect((await stat(old)).mode & 0o777).toBe(0o700);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
