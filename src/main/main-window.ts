import { BrowserWindow, session } from 'electron';
import { isReloadOrDevToolsKey } from './app-menu';
import { mayHave, mayRequest } from './core/permission-policy';
import { originOf } from './core/sender-policy';

/**
 * The one window, locked down per the Electron security checklist: context isolation, sandbox,
 * no Node in the renderer, web security on; no navigation away from the app, no new windows; the
 * only permissions granted are the microphone (audio) and clipboard writes, and only to our own
 * page (core/permission-policy.ts).
 */
export interface MainWindowOptions {
  preloadPath: string;
  appOrigin: string;
  /** app.isPackaged: no DevTools, and the reload and DevTools keys do nothing (app-menu.ts). */
  packaged: boolean;
}

export function createMainWindow({ preloadPath, appOrigin, packaged }: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 780,
    minWidth: 720,
    minHeight: 560,
    show: false,
    title: 'Ambient Scribe',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
      // A middle click on a link fires auxclick, which can open it in a new window; the window
      // open handler below refuses those too, and this keeps the page from seeing the event.
      disableBlinkFeatures: 'Auxclick',
      // The capture runs in this page (AudioWorklet, VAD, the chunk timer) and must keep its
      // 100 ms cadence while the clinician minimizes the app or works in the EHR in front of it;
      // Chromium's background throttling slows a hidden page's timers and animations.
      backgroundThrottling: false,
      // A packaged build has no DevTools: they would open the renderer to anyone at the keyboard.
      devTools: !packaged,
    },
  });
  window.once('ready-to-show', () => window.show());

  // "Disable or limit navigation" and "Disable or limit creation of new windows".
  window.webContents.on('will-navigate', (event, url) => {
    if (originOf(url) !== appOrigin) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));

  // A reload mid-visit drops the page's capture: a packaged build's menu has no Reload, and the
  // window refuses the keys too, whatever menu is set (preventDefault also stops menu shortcuts).
  if (packaged) {
    window.webContents.on('before-input-event', (event, input) => {
      if (isReloadOrDevToolsKey(input)) event.preventDefault();
    });
  }

  // "Handle session permission requests from remote content".
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? details.mediaTypes : undefined;
    callback(
      mayRequest(
        { permission, from: details.requestingUrl, isMainFrame: details.isMainFrame, mediaTypes },
        appOrigin,
      ),
    );
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    mayHave(
      { permission, from: requestingOrigin, isMainFrame: details.isMainFrame, mediaType: details.mediaType },
      appOrigin,
    ),
  );
  return window;
}
