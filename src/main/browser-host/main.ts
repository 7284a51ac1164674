/**
 * Browser mode's entry (`npm run start:browser`): the same main-process core as the desktop app,
 * in plain Node, with the built renderer served to a browser tab on 127.0.0.1.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startBrowserMode, stopOnSignals } from './browser-mode';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    data: { type: 'string' },
    'renderer-dir': { type: 'string' },
    // npm start's fallback: open the page in the system browser too (where there is one).
    open: { type: 'boolean', default: false },
    // The organisation's policy file (docs/deployment.md); else AMBIENT_SCRIBE_POLICY, else the machine's.
    policy: { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a whole number from 0 to 65535 (0 picks a free port); got "${values.port}".`);
  process.exit(2);
}

const mode = await startBrowserMode({
  port,
  ...(values.data ? { dataDirectory: values.data } : {}),
  renderer: { dir: values['renderer-dir'] ?? fileURLToPath(new URL('../renderer', import.meta.url)) },
  version: __APP_VERSION__,
  open: values.open,
  ...(values.policy ? { policyFile: values.policy } : {}),
});
stopOnSignals(mode);
