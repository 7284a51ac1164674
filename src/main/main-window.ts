import { BrowserWindow, session } from 'electron';
import { originOf } from './core/sender-policy';

/**
 * The one window, locked down per the Electron security checklist: context isolation, sandbox,
 * no Node in the renderer, web security on; no navigation away from the app, no new windows; the
 * only permission granted is the microphone, and only to our own origin.
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
    },
  });
  window.once('ready-to-show', () => window.show());

  // "Disable or limit navigation" and "Disable or limit creation of new windows".
  window.webContents.on('will-navigate', (event, url) => {
    if (originOf(url) !== appOrigin) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));

  // "Handle session permission requests from remote content": audio capture for us, nothing else.
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((contents, permission, callback, details) => {
    const fromUs = originOf(details.requestingUrl) === appOrigin;
    const audioOnly =
      permission === 'media' &&
      (details as { mediaTypes?: string[] }).mediaTypes?.every((t) => t === 'audio');
    callback(fromUs && Boolean(audioOnly));
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) => {
    return permission === 'media' && originOf(requestingOrigin) === appOrigin;
  });
  return window;
}
