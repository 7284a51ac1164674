import { test as base, _electron, type Browser, type ElectronApplication, type Page } from '@playwright/test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHostProcess, type HostProcess } from './browser-host-process';
import { fakeMicrophoneFlags, launchChromium } from './chromium';

export type Target = 'browser' | 'electron';

/** The running app as a test sees it, whichever target runs it. */
export interface ScribeApp {
  target: Target;
  page: Page;
  dataDir: string;
  /** Stops the app (host process or Electron) and starts it again on the same data directory. */
  restart(): Promise<Page>;
  /** Kills the app with SIGKILL (a crash) and starts it again on the same data directory. */
  crash(): Promise<Page>;
  /** Browser mode only: the page origin and the launch address. */
  host?: HostProcess;
  /** Electron only: the running app, for specs of the shell itself (its window, its quit). */
  electron?: ElectronApplication;
}

/** Chosen per Playwright project: the same specs run against browser mode and Electron. */
export interface ScribeTestOptions {
  target: Target;
  /**
   * A WAV file the browser plays as its microphone (Chromium's fake capture device, played once),
   * or undefined for no microphone flags. Worker-scoped: a spec that sets it gets its own browser.
   */
  fakeMicrophone: string | undefined;
  /**
   * The title of a "call" tab whose sound getDisplayMedia shares (a telehealth visit, issue 30;
   * e2e/support/call-tab.ts opens it), or undefined. Worker-scoped like the microphone.
   */
  callTab: string | undefined;
}

interface WorkerFixtures extends ScribeTestOptions {
  browser: Browser;
}

interface TestFixtures {
  scribe: ScribeApp;
  /**
   * Files (name → contents) put in the data directory before the app first starts, per target,
   * since each keeps its own file names (a damaged settings file, say).
   */
  seedFiles: Partial<Record<Target, Record<string, string>>>;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  target: ['browser', { option: true, scope: 'worker' }],
  fakeMicrophone: [undefined, { option: true, scope: 'worker' }],
  callTab: [undefined, { option: true, scope: 'worker' }],
  seedFiles: [{}, { option: true }],

  browser: [
    async ({ fakeMicrophone, callTab }, use) => {
      const browser = await launchChromium({ wav: fakeMicrophone, callTab });
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],

  scribe: async ({ target, browser, fakeMicrophone, seedFiles }, use) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'scribe-e2e-'));
    for (const [name, contents] of Object.entries(seedFiles[target] ?? {})) {
      await writeFile(join(dataDir, name), contents);
    }
    const app =
      target === 'browser'
        ? await browserModeApp(browser, dataDir)
        : await electronApp(dataDir, fakeMicrophoneFlags(fakeMicrophone));
    await use(app.scribe);
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';

async function browserModeApp(browser: Browser, dataDir: string) {
  const context = await browser.newContext();
  // The desktop app grants its own window the microphone (permission-policy.ts); a browser tab is
  // given it here, so the page meets the permission as the app's window does.
  await context.grantPermissions(['microphone']);
  let host = await startHostProcess(dataDir);
  const page = await context.newPage();
  await page.goto(host.launchUrl);
  const relaunch = async () => {
    host = await startHostProcess(dataDir);
    scribe.host = host;
    // A new launch has a new key: open the new address, as a person would.
    await page.goto(host.launchUrl);
    return page;
  };
  const scribe: ScribeApp = {
    target: 'browser',
    page,
    dataDir,
    host,
    async restart() {
      await host.stop();
      return relaunch();
    },
    async crash() {
      await host.kill();
      return relaunch();
    },
  };
  return {
    scribe,
    close: async () => {
      await context.close();
      await host.stop();
    },
  };
}

async function electronApp(dataDir: string, chromiumFlags: string[]) {
  // Electron passes Chromium switches on its command line through to Chromium.
  const launch = () =>
    _electron.launch({ args: ['.', ...chromiumFlags], env: { ...process.env, SCRIBE_DATA_DIR: dataDir } });
  let app = await launch();
  // A spec may have quit the app itself (the shell's quit spec): close only a running one.
  const closeIfRunning = async () => {
    const child = app.process();
    if (child.exitCode === null && child.signalCode === null) await app.close();
  };
  const scribe: ScribeApp = {
    target: 'electron',
    page: await app.firstWindow(),
    dataDir,
    electron: app,
    async restart() {
      await closeIfRunning();
      app = await launch();
      scribe.electron = app;
      scribe.page = await app.firstWindow();
      return scribe.page;
    },
    async crash() {
      app.process().kill('SIGKILL');
      await app.close().catch(() => undefined);
      app = await launch();
      scribe.electron = app;
      scribe.page = await app.firstWindow();
      return scribe.page;
    },
  };
  return { scribe, close: closeIfRunning };
}
