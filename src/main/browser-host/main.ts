/**
 * Browser mode's entry (`npm run start:browser`): the same main-process core as the desktop app,
 * in plain Node, with the built renderer served to a browser tab on 127.0.0.1.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAppCore } from '../core/app-core';
import { defaultDataDirectory, PRODUCT_NAME } from '../core/data-directory';
import { createJsonFileStorage } from '../core/json-file-storage';
import { scrubbedLogger } from '../core/logging/scrubbed-logger';
import { createSecretValues } from '../core/logging/secret-values';
import { createFileSecretBox } from '../core/secrets/file-secret-box';
import { checkSettingsFile } from '../core/startup/settings-file-check';
import { systemClock } from '../core/ports';
import { startBrowserHost } from './host';
import { createLaunchKey } from './launch-key';
import { browserModeLogPath, createNodeFileLogger } from './node-file-logger';
import { openInSystemBrowser } from './system-browser';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    data: { type: 'string' },
    'renderer-dir': { type: 'string' },
    // npm start's fallback: open the page in the system browser too (where there is one).
    open: { type: 'boolean', default: false },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a whole number from 0 to 65535 (0 picks a free port); got "${values.port}".`);
  process.exit(2);
}

const dataDirectory = values.data ?? defaultDataDirectory();
await mkdir(dataDirectory, { recursive: true, mode: 0o700 });

// Every line goes through the scrubber (no token, secret or patient data) to <data>/logs/main.log
// and the console; the core registers each secret it learns in secretValues, and so does this
// file with the launch key, so the scrubber knows them by value too.
const secretValues = createSecretValues();
const logPath = browserModeLogPath(dataDirectory);
const log = scrubbedLogger(createNodeFileLogger({ filePath: logPath, console: true }), secretValues);
const launchKey = createLaunchKey();
secretValues.add(launchKey.key);
secretValues.add(launchKey.sessionToken);

// Own file names: the desktop app keeps electron-store's settings.json and an encrypted
// secrets.json in the same directory, in formats browser mode must not overwrite. A damaged
// settings file is set aside first, as the desktop app does, and the window says so.
const settingsPath = join(dataDirectory, 'browser-settings.json');
const notices = await checkSettingsFile(settingsPath, log);

const core = await createAppCore({
  settingsStorage: createJsonFileStorage(settingsPath, log),
  // Browser mode keeps secrets in a file only this user can read (Electron uses the OS keychain).
  secrets: createFileSecretBox({ filePath: join(dataDirectory, 'browser-secrets.json'), log }),
  appInfo: {
    name: PRODUCT_NAME,
    version: __APP_VERSION__,
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
  rendererDir: values['renderer-dir'] ?? fileURLToPath(new URL('../renderer', import.meta.url)),
  port,
  log,
  launchKey,
});

// The SCRIBE_URL line is for programs (tests, scripts); the rest is for people.
console.log(`SCRIBE_URL=${host.launchUrl}`);
const opened = values.open && openInSystemBrowser(host.launchUrl, log);
console.log(
  `${PRODUCT_NAME} is running in browser mode. ` +
    (opened
      ? 'It opens in your browser; if not, open the address above in Chromium or Chrome.'
      : 'Open the address above in Chromium or Chrome.'),
);
console.log(`Settings: ${core.settings.location}. Log: ${logPath}. Stop with Ctrl+C.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void Promise.all([core.stop(), host.close()]).then(() => process.exit(0));
  });
}
