/**
 * The Electron shell: lifecycle, the window and the wiring of the Electron-free core to
 * electron-store and IPC. Everything else lives in core/ and runs without Electron.
 */
import { app, dialog, Menu, powerMonitor, shell, type BrowserWindow } from 'electron';
import { release } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isSignInPageUrl } from '../shared/sign-in-page';
import { applicationMenuTemplate } from './app-menu';
import { APP_ORIGIN, registerAppSchemePrivileges, serveRendererFromAppScheme } from './app-protocol';
import { createAppCore, type AppCore } from './core/app-core';
import {
  desktopDataDirectoryOverride,
  ensurePrivateDataDirectory,
  PRODUCT_NAME,
} from './core/data-directory';
import {
  startupFailureMessage,
  windowCrashLoopMessage,
  type FailureMessage,
} from './core/lifecycle/failure-messages';
import { createQuitFlush } from './core/lifecycle/quit-flush';
import { osUsername } from './core/startup/policy-file';
import { readStartupPolicy } from './core/startup/startup-policy';
import { debugSwitchRefusal, refusedDebugSwitch } from './core/startup/debug-switches';
import { linkFromSecondInstance, readLaunchArgs, secondInstanceData } from './core/startup/launch-args';
import { createReloadGuard, MAX_RELOADS, RELOAD_WINDOW_MS } from './core/lifecycle/reload-guard';
import { createLinkFocus } from './core/visit-links/link-focus';
import { scrubbedLogger } from './core/logging/scrubbed-logger';
import { createSecretValues } from './core/logging/secret-values';
import { systemClock } from './core/ports';
import { systemAudioSupport, withFeatures } from './core/system-audio';
import { createElectronFileLogger, electronLogPath } from './electron-file-logger';
import { createElectronSecretBox } from './electron-secret-box';
import { openElectronSettingsStorage } from './electron-settings-storage';
import { exposeContractOverIpc } from './ipc-transport';
import { createMainWindow } from './main-window';
import { reportWindowShown } from './window-shown';
import { recoverFromRendererCrashes } from './window-recovery';

// Development and the e2e tests choose the data directory; an installed app never lets its
// environment move it (data-directory.ts). It must be set before anything reads it.
const dataDirectoryOverride = desktopDataDirectoryOverride(process.env, app.isPackaged);
if (dataDirectoryOverride) app.setPath('userData', dataDirectoryOverride);
app.setName(PRODUCT_NAME);
registerAppSchemePrivileges();

// A telehealth visit records this computer's sound (issue 30, core/system-audio.ts): the Chromium
// features that loopback needs here are read at start, so they are switched before anything else.
const systemAudio = systemAudioSupport(process.platform, release());
for (const [name, features] of [
  ['enable-features', systemAudio.enableFeatures],
  ['disable-features', systemAudio.disableFeatures],
] as const) {
  if (features.length > 0)
    app.commandLine.appendSwitch(name, withFeatures(app.commandLine.getSwitchValue(name), features));
}

const outDir = fileURLToPath(new URL('..', import.meta.url));
// electron-vite dev serves the renderer over http with hot reload; a build uses app://.
const devRendererUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const appOrigin = devRendererUrl ? new URL(devRendererUrl).origin : APP_ORIGIN;
const startUrl = devRendererUrl ?? `${APP_ORIGIN}/index.html`;

// Every line goes through the scrubber (no token, secret or patient data) to the log file; the
// core registers each secret it learns in secretValues so the scrubber knows it by value too.
const secretValues = createSecretValues();
const log = scrubbedLogger(createElectronFileLogger(), secretValues);

let core: AppCore | undefined;
let mainWindow: BrowserWindow | undefined;

// Quitting stops the core first (History and the spool flushed), within 5 s: core/lifecycle/quit-flush.ts.
const quitFlush = createQuitFlush({
  stop: () => core?.stop() ?? Promise.resolve(),
  quit: () => app.quit(),
  log,
  clock: systemClock,
});
app.on('before-quit', (event) => quitFlush.onBeforeQuit(event));

// A packaged app refuses debugging switches (core/startup/debug-switches.ts, issue 39): DevTools on
// a port or pipe would open the window to any local program. A development build keeps them (the
// developer's, and Playwright's own --remote-debugging-port); SCRIBE_REFUSE_DEBUG_SWITCHES=1 makes
// one refuse them too, as its Electron spec does.
const debugSwitch =
  app.isPackaged || process.env.SCRIBE_REFUSE_DEBUG_SWITCHES === '1'
    ? refusedDebugSwitch(process.argv, process.platform)
    : undefined;
if (debugSwitch) {
  const line = debugSwitchRefusal(debugSwitch);
  log.error(line);
  console.error(line);
  app.exit(2);
}

// This launch's command line, read once (core/startup/launch-args.ts): `--policy` only before `--`,
// and the visit link only as the one argument after it. Problems are logged without their values.
const launch = readLaunchArgs(process.argv);
for (const problem of launch.problems) log.warn(`launch: ${problem}`);

// One instance per user: two would share the secret box, and a rotated OIDC refresh token replayed
// by the second instance makes the identity provider revoke the sign-in of both.
// A second launch is how Windows and Linux hand over a visit link from the EHR (issue 18): it reads
// its own command line and sends the link alone as the lock's additionalData, then exits.
// Electron 45 (docs/api/app.md, `app.requestSingleInstanceLock([additionalData])` and Event
// 'second-instance'; electron.d.ts: `requestSingleInstanceLock(additionalData?: Record<any, any>)`,
// the listener's fourth parameter `additionalData: unknown`): the argv the event carries "will not
// be exactly the same list of arguments as those passed to the second instance. The order might
// change and additional arguments might be appended ... it's advised to use additionalData
// instead", so the forwarded argv is never read here.
if (!app.requestSingleInstanceLock(secondInstanceData(launch))) app.exit(0);
// A burst of links (a page or a script firing them) brings the window forward once, not per link.
const linkFocus = createLinkFocus({ now: () => performance.now() });
app.on('second-instance', (_event, _argv, _workingDirectory, additionalData) => {
  const second = linkFromSecondInstance(additionalData);
  if (second.kind === 'refused') log.warn(`second launch: ${second.problem}`);
  if (second.kind === 'link') openVisitLink(second.link);
  // A plain second launch (the menu, the icon) is the clinician asking for the window.
  if (second.kind === 'plain' || linkFocus.linkArrived()) showWindow();
});
// macOS hands links to the running app (and to one it launches for them, possibly before it is
// ready) as open-url events; the installer's Info.plist registers the scheme (electron-builder
// `protocols`).
app.on('open-url', (event, url) => {
  event.preventDefault();
  openVisitLink(url);
  if (linkFocus.linkArrived()) showWindow();
});

/** Links that arrive before the core exists (the first launch's own, macOS's early open-url) wait. */
const earlyLinks: string[] = [];
function openVisitLink(url: string): void {
  if (core) core.openVisitLink(url);
  else earlyLinks.push(url);
}

function showWindow(): void {
  if (mainWindow?.isMinimized()) mainWindow.restore();
  mainWindow?.focus();
}

async function start(): Promise<void> {
  await ensurePrivateDataDirectory(app.getPath('userData'));
  serveRendererFromAppScheme(join(outDir, 'renderer'));
  // Electron's default menu would ship View ▸ Reload and DevTools (app-menu.ts).
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      applicationMenuTemplate({ packaged: app.isPackaged, platform: process.platform, appName: app.name }),
    ),
  );
  // A damaged settings.json is set aside first (electron-store would throw on it); the window says so.
  const settings = await openElectronSettingsStorage(log);
  core = await createAppCore({
    // The organisation's policy (issue 28): an installed app reads only places only IT can write
    // (startup-policy.ts); `--policy FILE` and AMBIENT_SCRIBE_POLICY count in development builds.
    policy: await readStartupPolicy({
      argument: launch.policy,
      env: process.env,
      platform: process.platform,
      packaged: app.isPackaged,
      log,
    }),
    username: osUsername(),
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
  // The launch's own link (Windows, Linux), then any macOS handed over while the app started.
  for (const link of [...(launch.link !== undefined ? [launch.link] : []), ...earlyLinks.splice(0)])
    core.openVisitLink(link);
  if (!systemAudio.loopback)
    log.info(`telehealth: this computer's sound cannot be recorded (${systemAudio.reason})`);
  const window = createMainWindow({
    preloadPath: join(outDir, 'preload', 'index.cjs'),
    appOrigin,
    packaged: app.isPackaged,
    systemAudio,
    telehealth: () => core?.settings.get().visitAudio === 'telehealth',
  });
  mainWindow = window;
  exposeContractOverIpc(core, window, appOrigin);
  reportWindowShown(window);
  // A renderer that dies is loaded again (the page re-attaches to a recording visit by itself);
  // one that keeps dying closes the app with a dialog instead of a blank window.
  recoverFromRendererCrashes(window, {
    url: startUrl,
    log,
    guard: createReloadGuard(() => Date.now()),
    quitting: () => quitFlush.quitting,
    onCrashLoop: () => {
      showFailure(windowCrashLoopMessage(logPathForPeople(), MAX_RELOADS + 1, RELOAD_WINDOW_MS / 1_000));
      app.quit();
    },
  });
  // After sleep the stream's socket may be dead without knowing it: reconnect now, not after a
  // stall timeout or a long backoff (the spool holds whatever the service has not acknowledged).
  powerMonitor.on('resume', () => core?.wake());
  powerMonitor.on('suspend', () => core?.suspend());
  // A system shutdown may not wait for a quit (and on Windows emits no before-quit, app.md): the
  // open spool segments are fsynced at once, synchronously; then a quit stops the core if there
  // is still time (powerMonitor 'shutdown' on Linux and macOS, the window's 'session-end' on Windows).
  const onShutdown = () => {
    core?.suspend();
    app.quit();
  };
  powerMonitor.on('shutdown', onShutdown);
  window.on('session-end', onShutdown);
  await window.loadURL(startUrl);
}

// app.exit() ends the process soon, not at once: nothing starts meanwhile for a refused switch.
if (!debugSwitch) app.whenReady().then(start).catch(failedToStart);

/**
 * Any step of the start that failed (the settings, the secret box, the window did not load): the
 * clinician sees a dialog instead of an invisible process, and the app exits, which also lets go of
 * the single-instance lock so the next launch starts afresh. A core that did start is stopped first.
 */
async function failedToStart(error: unknown): Promise<void> {
  log.error('app: could not start', { error });
  await quitFlush.stopWithin();
  showFailure(startupFailureMessage(logPathForPeople()));
  app.exit(1);
}

/**
 * dialog.showErrorBox works before the app is ready (Electron docs, dialog.md), though on Linux
 * only on stderr then; every caller here runs once it is ready, where it is a modal dialog.
 */
function showFailure(message: FailureMessage): void {
  dialog.showErrorBox(message.title, message.content);
}

function logPathForPeople(): string {
  try {
    return electronLogPath();
  } catch {
    return 'the logs folder of the app data directory';
  }
}

// One window: closing it quits the app on every platform, macOS included (a visit lives in the
// window, so there is nothing to keep running without one). before-quit then stops the core.
app.on('window-all-closed', () => app.quit());

/** shell.openExternal only for sign-in pages: https, or http on the loopback IdP of the sandbox. */
async function openSignInPage(url: string): Promise<void> {
  if (!isSignInPageUrl(url)) throw new Error('Refusing to open a sign-in page that is not https.');
  await shell.openExternal(url);
}
