/**
 * `npm run sandbox -- [--port N] [--partners FILE] [--time-scale X] [--asr auto|pocketsphinx|energy] [--data DIR] [--no-ack]`
 * Starts the documentation-service emulator and prints `SANDBOX_URL=http://127.0.0.1:N` when ready.
 */
import { parseArgs } from 'node:util';
import { startSandbox } from './server';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    partners: { type: 'string' },
    'time-scale': { type: 'string', default: '1' },
    asr: { type: 'string', default: 'auto' },
    data: { type: 'string' },
    'min-speech-ms': { type: 'string', default: '1000' },
    'no-control-api': { type: 'boolean', default: false },
    'no-ack': { type: 'boolean', default: false },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535)
  fail(`--port must be 0–65535 (0 picks a free port); got "${values.port}"`);
const timeScale = Number(values['time-scale']);
if (!(timeScale > 0))
  fail(
    `--time-scale must be a positive number (0.01 = every timer 100× shorter); got "${values['time-scale']}"`,
  );
const asr = values.asr;
if (asr !== 'auto' && asr !== 'pocketsphinx' && asr !== 'energy')
  fail(`--asr must be auto, pocketsphinx or energy; got "${asr}"`);
const minSpeechMs = Number(values['min-speech-ms']);
if (!(minSpeechMs >= 0))
  fail(`--min-speech-ms must be a number of milliseconds ≥ 0; got "${values['min-speech-ms']}"`);

const sandbox = await startSandbox({
  port,
  timeScale,
  asr,
  minSpeechMs,
  controlApi: !values['no-control-api'],
  ack: !values['no-ack'],
  ...(values.partners ? { partnersFile: values.partners } : {}),
  ...(values.data ? { dataDir: values.data } : {}),
  log: {
    info: (m, f) => console.error(`[sandbox] ${m}`, f ?? ''),
    warn: (m, f) => console.error(`[sandbox] warning: ${m}`, f ?? ''),
    error: (m, f) => console.error(`[sandbox] error: ${m}`, f ?? ''),
  },
}).catch((error: unknown) => fail(`The sandbox could not start: ${(error as Error).message}`));

console.log(`SANDBOX_URL=${sandbox.url}`);
console.error(
  `[sandbox] partners: ${[...sandbox.partners.keys()].join(', ')}; IdP issuer ${sandbox.idpIssuer}; time scale ${timeScale}`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
}
