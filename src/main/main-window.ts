import { BrowserWindow, session } from 'electron';
import { mayHave, mayRequest } from './core/permission-policy';
import { originOf } from './core/sender-policy';

/**
 * The one window, locked down per the Electron security checklist: context isolation, sandbox,
 * no Node in the renderer, web security on; no navigation away from the app, no new windows; the
 * only permissions granted are the microphone (audio) and clipboard writes, and only to our own
 * page (core/permission-policy.ts).
 */
export function createMainWindow(preloadPath: string, appOrigin: string): BrowserWindow {
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
    },
  });
  window.once('ready-to-show', () => window.show());

  // "Disable or limit navigation" and "Disable or limit creation of new windows".
  window.webContents.on('will-navigate', (event, url) => {
    if (originOf(url) !== appOrigin) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));

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
