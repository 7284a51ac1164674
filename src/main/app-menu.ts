import type { MenuItemConstructorOptions } from 'electron';

/**
 * The application menu, as plain data (Menu.buildFromTemplate takes it in index.ts), so it is
 * tested without Electron. Without a menu of its own, Electron installs its default one, whose
 * View menu has Reload (Ctrl+R / ⌘R), Force Reload and Toggle Developer Tools
 * (lib/browser/default-menu.ts). A reload in the middle of a visit drops the window's capture and
 * DevTools open the renderer to anyone at the keyboard, so a packaged build ships neither; a
 * development build keeps them for developers.
 *
 * What a clinician needs stays: on macOS the app menu (About, Hide, Quit) and Edit, whose roles
 * are what make ⌘C / ⌘V work in the window at all on macOS; Window (minimize, close). On Windows
 * and Linux, File ▸ Quit and Edit.
 */

export interface MenuOptions {
  /** app.isPackaged */
  packaged: boolean;
  platform: NodeJS.Platform;
  /** app.name, the macOS app menu's title. */
  appName: string;
}

/** Roles that reload the window or open DevTools (viewMenu is Electron's View menu, which has them). */
export const DEVELOPER_ROLES = ['reload', 'forceReload', 'toggleDevTools', 'viewMenu'] as const;

export function applicationMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'selectAll' },
    ],
  };
  const developer: MenuItemConstructorOptions[] = options.packaged
    ? []
    : [
        {
          label: 'View',
          submenu: [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }],
        },
      ];
  if (mac) {
    return [
      {
        label: options.appName,
        submenu: [
          { role: 'about' },
          { type: 'separator' },
          { role: 'hide' },
          { role: 'hideOthers' },
          { role: 'unhide' },
          { type: 'separator' },
          { role: 'quit' },
        ],
      },
      edit,
      ...developer,
      { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close' }] },
    ];
  }
  return [{ label: 'File', submenu: [{ role: 'quit' }] }, edit, ...developer];
}

/** The keys of a keyboard event as Electron's before-input-event gives them. */
export interface KeyInput {
  type: string;
  /** The physical key (KeyboardEvent.code): the same whatever the layout or ⌥ makes of it. */
  code: string;
  control: boolean;
  meta: boolean;
  shift: boolean;
  alt: boolean;
}

/**
 * Reload and DevTools keys. Electron's menu accelerators are where they come from, and the
 * packaged menu has none; the window still refuses them itself in packaged builds, so no future
 * menu item or platform default brings them back: Ctrl/⌘+R, Ctrl/⌘+Shift+R, F5 (with any
 * modifier), Ctrl+Shift+I / ⌘⌥I, F12.
 */
export function isReloadOrDevToolsKey(input: KeyInput): boolean {
  if (input.type !== 'keyDown') return false;
  const command = input.control || input.meta;
  if (input.code === 'F5' || input.code === 'F12') return true;
  if (command && input.code === 'KeyR') return true;
  if (command && (input.shift || input.alt) && input.code === 'KeyI') return true;
  return false;
}
