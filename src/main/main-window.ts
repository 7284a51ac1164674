import { BrowserWindow, session } from 'electron';
import { isReloadOrDevToolsKey } from './app-menu';
import { mayHave, mayRequest } from './core/permission-policy';
import { originOf } from './core/sender-policy';
import { maySystemAudio, type SystemAudioSupport } from './core/system-audio';

/**
 * The one window, locked down per the Electron security checklist: context isolation, sandbox,
 * no Node in the renderer, web security on; no navigation away from the app, no new windows; the
 * only permissions granted are the microphone (audio), this computer's sound for a telehealth
 * visit, and clipboard writes, and only to our own page (core/permission-policy.ts,
 * core/system-audio.ts).
 */
export interface MainWindowOptions {
  preloadPath: string;
  appOrigin: string;
  /** app.isPackaged: no DevTools, and the reload and DevTools keys do nothing (app-menu.ts). */
  packaged: boolean;
  /** Whether, and how, a telehealth visit gets this computer's sound (core/system-audio.ts). */
  systemAudio: SystemAudioSupport;
  /** The visit audio setting is Telehealth now (the page may then ask for the call's sound). */
  telehealth: () => boolean;
}

export function createMainWindow({
  preloadPath,
  appOrigin,
  packaged,
  systemAudio,
  telehealth,
}: MainWindowOptions): BrowserWindow {
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
        { telehealth: telehealth() },
      ),
    );
  });
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    mayHave(
      { permission, from: requestingOrigin, isMainFrame: details.isMainFrame, mediaType: details.mediaType },
      appOrigin,
    ),
  );

  // A telehealth visit's call (issue 30): the page's getDisplayMedia gets this computer's sound,
  // 'loopback' (never 'loopbackWithMute': the clinician must go on hearing the patient). The
  // specification allows no request without video, so the video granted is the asking page's own
  // frame (session.md: a WebFrameMain captures its tab), which the page stops at once: no screen
  // is ever captured. (macOS 13 to 14.1 still ask for Screen & System Audio Recording: their
  // loopback is ScreenCaptureKit's, system-audio.ts.) Refused: callback(null).
  ses.setDisplayMediaRequestHandler((request, callback) => {
    const frame = request.frame;
    const ask = {
      securityOrigin: request.securityOrigin,
      isMainFrame: frame !== null && frame.parent === null,
      audioRequested: request.audioRequested,
      videoRequested: request.videoRequested,
    };
    if (!frame || !maySystemAudio(ask, appOrigin, systemAudio, { telehealth: telehealth() }))
      return callback(null);
    callback({ video: frame, audio: 'loopback' });
  });
  return window;
}
