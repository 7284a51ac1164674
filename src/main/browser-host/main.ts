/**
 * Browser mode's entry (`npm run start:browser`): the same main-process core as the desktop app,
 * in plain Node, with the built renderer served to a browser tab on 127.0.0.1.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { defaultDataDirectory } from '../core/data-directory';
import { AlreadyRunningError, startBrowserMode, stopOnSignals } from './browser-mode';
import { handOff, HandoffRefusedError } from './instance-handoff';
import { readLinkLine } from './stdin-link';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    data: { type: 'string' },
    'renderer-dir': { type: 'string' },
    // npm start's fallback: open the page in the system browser too (where there is one).
    open: { type: 'boolean', default: false },
    // The organisation's policy file (docs/deployment.md); else AMBIENT_SCRIBE_POLICY, else the machine's.
    policy: { type: 'string' },
    // A visit link from the EHR (ambient-scribe://visit?…): handed to the instance running on this
    // data directory, or opened by this one once it runs (docs/deployment.md, visit links).
    // `--open-url -` reads it from standard input, one line, so it is in no process list.
    'open-url': { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a whole number from 0 to 65535 (0 picks a free port); got "${values.port}".`);
  process.exit(2);
}

const dataDirectory = values.data ?? defaultDataDirectory();
const openUrl =
  values['open-url'] === '-'
    ? await readLinkLine(process.stdin).catch((error: unknown) => {
        console.error((error as Error).message);
        process.exit(2);
      })
    : values['open-url'];
if (openUrl !== undefined) {
  const reply = await handOff(dataDirectory, openUrl).catch((error: unknown) => {
    // A socket that is not this user's own: said as it is, and no instance is started over it.
    if (error instanceof HandoffRefusedError) console.error(error.message);
    else console.error(`The running app did not take the visit link: ${(error as Error).message}`);
    process.exit(1);
  });
  if (reply !== 'none') {
    if (reply.ok) {
      console.log(`The visit link was handed to the running app (data directory ${dataDirectory}).`);
      process.exit(0);
    }
    console.error('The visit link was not used; the running app shows why:');
    for (const problem of reply.problems) console.error(`  ${problem.field} ${problem.rule}`);
    process.exit(1);
  }
}

const mode = await startBrowserMode({
  port,
  dataDirectory,
  renderer: { dir: values['renderer-dir'] ?? fileURLToPath(new URL('../renderer', import.meta.url)) },
  version: __APP_VERSION__,
  open: values.open,
  ...(values.policy ? { policyFile: values.policy } : {}),
  ...(openUrl !== undefined ? { openUrl } : {}),
}).catch((error: unknown) => {
  if (!(error instanceof AlreadyRunningError)) throw error;
  console.error(error.message);
  process.exit(1);
});
stopOnSignals(mode);
