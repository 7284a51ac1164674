import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { applicationMenuTemplate, DEVELOPER_ROLES, isReloadOrDevToolsKey, type KeyInput } from './app-menu';

/** Every item of a template, submenus included. */
function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [
    item,
    ...(Array.isArray(item.submenu) ? items(item.submenu as MenuItemConstructorOptions[]) : []),
  ]);
}
const roles = (template: MenuItemConstructorOptions[]) =>
  items(template)
    .map((item) => item.role?.toLowerCase())
    .filter(Boolean);
const developerRoles = DEVELOPER_ROLES.map((role) => role.toLowerCase());
const PLATFORMS = ['darwin', 'win32', 'linux'] as const;

describe('the application menu', () => {
  it.each(PLATFORMS)('packaged on %s: nothing reloads the window or opens DevTools', (platform) => {
    const template = applicationMenuTemplate({ packaged: true, platform, appName: 'Ambient Scribe' });
    // Electron matches roles case-insensitively, so the check does too.
    expect(roles(template).filter((role) => developerRoles.includes(role!))).toEqual([]);
    expect(items(template).some((item) => item.accelerator !== undefined)).toBe(false);
    expect(items(template).some((item) => item.click !== undefined)).toBe(false);
  });

  it('packaged on macOS: the app menu (About, Hide, Quit), Edit (so ⌘C and ⌘V work) and Window', () => {
    const template = applicationMenuTemplate({
      packaged: true,
      platform: 'darwin',
      appName: 'Ambient Scribe',
    });
    expect(template.map((menu) => menu.label)).toEqual(['Ambient Scribe', 'Edit', 'Window']);
    expect(roles(template)).toEqual([
      'about',
      'hide',
      'hideothers',
      'unhide',
      'quit',
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'selectall',
      'minimize',
      'close',
    ]);
  });

  it.each(['win32', 'linux'] as const)('packaged on %s: File ▸ Quit and Edit', (platform) => {
    const template = applicationMenuTemplate({ packaged: true, platform, appName: 'Ambient Scribe' });
    expect(template.map((menu) => menu.label)).toEqual(['File', 'Edit']);
    expect(roles(template)).toEqual(['quit', 'undo', 'redo', 'cut', 'copy', 'paste', 'selectall']);
  });

  it.each(PLATFORMS)('a development build on %s keeps Reload, Force Reload and DevTools', (platform) => {
    const template = applicationMenuTemplate({ packaged: false, platform, appName: 'Ambient Scribe' });
    expect(roles(template)).toEqual(expect.arrayContaining(['reload', 'forcereload', 'toggledevtools']));
  });
});

describe('reload and DevTools keys', () => {
  const key = (code: string, mods: Partial<KeyInput> = {}): KeyInput => ({
    type: 'keyDown',
    code,
    control: false,
    meta: false,
    shift: false,
    alt: false,
    ...mods,
  });

  it('are Ctrl/⌘+R, Ctrl/⌘+Shift+R, F5 with any modifier, Ctrl+Shift+I, ⌘⌥I and F12', () => {
    for (const input of [
      key('KeyR', { control: true }),
      key('KeyR', { meta: true }),
      key('KeyR', { control: true, shift: true }),
      key('F5'),
      key('F5', { control: true }),
      key('F5', { shift: true }),
      key('KeyI', { control: true, shift: true }),
      key('KeyI', { meta: true, alt: true }),
      key('F12'),
    ]) {
      expect(isReloadOrDevToolsKey(input), JSON.stringify(input)).toBe(true);
    }
  });

  it('leave the app’s own shortcuts, typing and copy/paste alone', () => {
    for (const input of [
      key('KeyR'),
      key('KeyR', { shift: true }),
      key('KeyI', { control: true }),
      key('Space', { control: true, shift: true }),
      key('Enter', { control: true, shift: true }),
      key('KeyC', { control: true }),
      key('KeyV', { meta: true }),
      key('F5', { type: 'keyUp' }),
    ]) {
      expect(isReloadOrDevToolsKey(input), JSON.stringify(input)).toBe(false);
    }
  });
});
