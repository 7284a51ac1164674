import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultDataDirectory } from './data-directory';

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
});
