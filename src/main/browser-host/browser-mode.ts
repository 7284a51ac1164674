/**
 * Browser mode, started: the same main-process core as the desktop app, in plain Node, with the
 * renderer served to a browser tab on 127.0.0.1. Two entries use it: `main.ts` (`npm run
 * start:browser`, the built renderer) and `scripts/dev-browser.ts` (`npm run dev` where Electron's
 * runtime is missing: the renderer from Vite's dev server, with hot reload).
 */
import { join } from 'node:path';
import { createAppCore, type AppCore } from '../core/app-core';
import { osUsername } from '../core/startup/policy-file';
import { readStartupPolicy } from '../core/startup/startup-policy';
import { defaultDataDirectory, ensurePrivateDataDirectory, PRODUCT_NAME } from '../core/data-directory';
import { createJsonFileStorage } from '../core/json-file-storage';
import { scrubbedLogger } from '../core/logging/scrubbed-logger';
import { createSecretValues } from '../core/logging/secret-values';
import { createFileSecretBox } from '../core/secrets/file-secret-box';
import { checkSettingsFile } from '../core/startup/settings-file-check';
import { systemClock } from '../core/ports';
import { startBrowserHost, type BrowserHost, type RendererSource } from './host';
import { createPageCapability } from './page-capability';
import { browserModeLogPath, createNodeFileLogger } from './node-file-logger';
import { openInSystemBrowser, writeLaunchFile, type LaunchFile } from './system-browser';
import { listenForHandoffs } from './instance-handoff';

export interface BrowserModeOptions {
  /** 0 picks a free port. */
  port: number;
  /** Where settings, secrets, History, the spool and the log live (default: the app's data directory). */
  dataDirectory?: string;
  renderer: RendererSource;
  /** The app's version (package.json), as the window shows it. */
  version: string;
  /** Open the page in the system browser too (where there is one). */
  open: boolean;
  /** `--policy FILE`: the organisation's policy, before AMBIENT_SCRIBE_POLICY and the machine's. */
  policyFile?: string;
  /** `--open-url LINK`: a visit link from the EHR, opened once the app runs (issue 18). */
  openUrl?: string;
}

/** Another browser mode runs on this data directory (they would share its secrets and History). */
export class AlreadyRunningError extends Error {
  constructor(readonly dataDirectory: string) {
    super(
      `Ambient Scribe is already running in browser mode with the data directory ${dataDirectory}. ` +
        'Use its window; a visit link reaches it with --open-url.',
    );
    this.name = 'AlreadyRunningError';
  }
}

export interface BrowserMode {
  core: AppCore;
  host: BrowserHost;
  stop(): Promise<void>;
}

/** Starts browser mode and prints its address (the SCRIBE_URL line, for programs) and where things are. */
export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const dataDirectory = options.dataDirectory ?? defaultDataDirectory();
  await ensurePrivateDataDirectory(dataDirectory);

  // Every line goes through the scrubber (no token, secret or patient data) to <data>/logs/main.log
  // and the console; the core registers each secret it learns in secretValues, and so does this
  // file with the launch key and each page token, so the scrubber knows them by value too.
  const secretValues = createSecretValues();
  const logPath = browserModeLogPath(dataDirectory);
  const log = scrubbedLogger(createNodeFileLogger({ filePath: logPath, console: true }), secretValues);
  let launchFile: LaunchFile | undefined;
  const capability = createPageCapability({
    remember: (secret) => secretValues.add(secret),
    onLaunchKeySpent: () => launchFile?.remove(),
  });

  // Own file names: the desktop app keeps electron-store's settings.json and an encrypted
  // secrets.json in the same directory, in formats browser mode must not overwrite. A damaged
  // settings file is set aside first, as the desktop app does, and the window says so.
  // One instance per data directory, as the desktop app's single-instance lock; a second launch
  // hands its visit link to this one over a socket (Windows: a pipe of a random name) only this
  // user reaches (instance-handoff.ts).
  // Filled in once the core runs; a link that comes earlier is asked to come again.
  const started: { core?: AppCore } = {};
  const handoffs = await listenForHandoffs(
    dataDirectory,
    (url) =>
      started.core?.openVisitLink(url) ?? {
        ok: false,
        problems: [{ field: 'app', rule: 'is still starting; open the link again in a moment' }],
      },
    log,
  );
  if (handoffs === 'running') throw new AlreadyRunningError(dataDirectory);

  const settingsPath = join(dataDirectory, 'browser-settings.json');
  const notices = await checkSettingsFile(settingsPath, log);

  const policy = await readStartupPolicy({
    argument: options.policyFile,
    env: process.env,
    platform: process.platform,
    packaged: false,
    log,
  });
  const core = await createAppCore({
    policy,
    username: osUsername(),
    settingsStorage: createJsonFileStorage(settingsPath, log),
    // Browser mode keeps secrets in a file only this user can read (Electron uses the OS keychain).
    secrets: createFileSecretBox({ filePath: join(dataDirectory, 'browser-secrets.json'), log }),
    appInfo: {
      name: PRODUCT_NAME,
      version: options.version,
      mode: 'browser',
      platform: process.platform,
      runtime: { node: process.versions.node },
      dataDirectory,
      notices,
    },
    log,
    secretValues,
    clock: systemClock,
  });

  const host = await startBrowserHost({
    core,
    renderer: options.renderer,
    port: options.port,
    log,
    capability,
  });

  started.core = core;
  if (options.openUrl !== undefined) core.openVisitLink(options.openUrl);

  console.log(`SCRIBE_URL=${host.launchUrl}`);
  // The browser is handed a private file that leads to the address, not the address: another user
  // can read a process's arguments, and the address carries the launch key.
  if (options.open) {
    launchFile = writeLaunchFile(dataDirectory, host.launchUrl);
    console.log(`SCRIBE_LAUNCH_FILE=${launchFile.path}`);
  }
  const opened = launchFile !== undefined && openInSystemBrowser(launchFile.path, log);
  console.log(
    `${PRODUCT_NAME} is running in browser mode. ` +
      (opened
        ? 'It opens in your browser; if not, open the address above in Chromium or Chrome.'
        : 'Open the address above in Chromium or Chrome.'),
  );
  console.log(`Settings: ${core.settings.location}. Log: ${logPath}. Stop with Ctrl+C.`);

  return {
    core,
    host,
    stop: async () => {
      launchFile?.remove();
      await Promise.all([core.stop(), host.close(), handoffs.close()]);
    },
  };
}

/** How long a clean stop may take before the process exits anyway (it has never needed a second). */
export const STOP_LIMIT_MS = 15_000;

/**
 * Stops browser mode cleanly on Ctrl+C or a polite kill, then exits: always. A stop that fails
 * exits with 1 and says why; one that has not ended after STOP_LIMIT_MS exits with 1 too (once,
 * in a full test run, a stop never ended and the process outlived its test by a minute).
 */
export function stopOnSignals(mode: { stop(): Promise<void> }, limitMs = STOP_LIMIT_MS): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      setTimeout(() => {
        console.error(`Stopping took longer than ${limitMs / 1_000} s: exiting now.`);
        process.exit(1);
      }, limitMs).unref();
      mode.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`Stopping failed (${(error as Error).name}): exiting now.`);
          process.exit(1);
        },
      );
    });
  }
}
