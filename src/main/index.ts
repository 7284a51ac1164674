/**
 * The Electron shell: lifecycle, the window and the wiring of the Electron-free core to
 * electron-store and IPC. Everything else lives in core/ and runs without Electron.
 */
import { app, powerMonitor, shell, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSignInPageUrl } from '../shared/sign-in-page';
import { APP_ORIGIN, registerAppSchemePrivileges, serveRendererFromAppScheme } from './app-protocol';
import { createAppCore, type AppCore } from './core/app-core';
import { PRODUCT_NAME } from './core/data-directory';
import { scrubbedLogger } from './core/logging/scrubbed-logger';
import { createSecretValues } from './core/logging/secret-values';
import { systemClock } from './core/ports';
import { createElectronFileLogger } from './electron-file-logger';
import { createElectronSecretBox } from './electron-secret-box';
import { openElectronSettingsStorage } from './electron-settings-storage';
import { exposeContractOverIpc } from './ipc-transport';
import { createMainWindow } from './main-window';

// Tests and portable installs choose the data directory; it must be set before anything reads it.
if (process.env.SCRIBE_DATA_DIR) app.setPath('userData', process.env.SCRIBE_DATA_DIR);
app.setName(PRODUCT_NAME);
registerAppSchemePrivileges();

const outDir = fileURLToPath(new URL('..', import.meta.url));
// electron-vite dev serves the renderer over http with hot reload; a build uses app://.
const devRendererUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const appOrigin = devRendererUrl ? new URL(devRendererUrl).origin : APP_ORIGIN;

// Every line goes through the scrubber (no token, secret or patient data) to the log file; the
// core registers each secret it learns in secretValues so the scrubber knows it by value too.
const secretValues = createSecretValues();
const log = scrubbedLogger(createElectronFileLogger(), secretValues);

let core: AppCore | undefined;
let mainWindow: BrowserWindow | undefined;

// One instance per user: two would share the secret box, and a rotated OIDC refresh token replayed
// by the second instance makes the identity provider revoke the sign-in of both.
if (!app.requestSingleInstanceLock()) app.exit(0);
app.on('second-instance', () => {
  if (mainWindow?.isMinimized()) mainWindow.restore();
  mainWindow?.focus();
});

async function start(): Promise<void> {
  serveRendererFromAppScheme(join(outDir, 'renderer'));
  // A damaged settings.json is set aside first (electron-store would throw on it); the window says so.
  const settings = await openElectronSettingsStorage(log);
  core = await createAppCore({
    settingsStorage: settings.storage,
    secrets: createElectronSecretBox(app.getPath('userData'), log),
    // Electron security checklist: open only the https (or loopback) sign-in URLs the core built.
    openExternal: (url) => openSignInPage(url),
    appInfo: {
      name: PRODUCT_NAME,
      version: app.getVersion(),
      mode: 'electron',
      platform: process.platform,
      runtime: { node: process.versions.node, electron: process.versions.electron },
      dataDirectory: app.getPath('userData'),
      notices: settings.notices,
    },
    log,
    secretValues,
    clock: systemClock,
  });
  const window = createMainWindow(join(outDir, 'preload', 'index.cjs'), appOrigin);
  mainWindow = window;
  exposeContractOverIpc(core, window, appOrigin);
  // After sleep the stream's socket may be dead without knowing it: reconnect now, not after a
  // stall timeout or a long backoff (the spool holds whatever the service has not acknowledged).
  powerMonitor.on('resume', () => core?.wake());
  powerMonitor.on('suspend', () => core?.suspend());
  await window.loadURL(devRendererUrl ?? `${APP_ORIGIN}/index.html`);
}

app
  .whenReady()
  .then(start, (error: unknown) => {
    log.error('the app could not start', { error });
    app.exit(1);
  })
  // A step of start() that failed (the window did not load, say) is written down, not lost.
  .catch((error: unknown) => log.error('the app did not finish starting', { error }));

app.on('window-all-closed', () => {
  void core?.stop().finally(() => app.quit());
});

/** shell.openExternal only for sign-in pages: https, or http on the loopback IdP of the sandbox. */
async function openSignInPage(url: string): Promise<void> {
  if (!isSignInPageUrl(url)) throw new Error('Refusing to open a sign-in page that is not https.');
  await shell.openExternal(url);
}
