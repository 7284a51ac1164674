// A test's hold on a process's wall clock (e2e/support/browser-host-process.ts, movableClock):
// Date.now runs on, plus however far the test moved it. On SIGUSR2 it reads how far from the file
// SCRIBE_TEST_CLOCK_FILE names, and says so on standard output. Loaded with `node --import`, never by
// the app itself.
import { readFileSync } from 'node:fs';

const file = process.env.SCRIBE_TEST_CLOCK_FILE;
const realNow = Date.now.bind(Date);
let movedMs = 0;
Date.now = () => realNow() + movedMs;
process.on('SIGUSR2', () => {
  movedMs = Number(readFileSync(file, 'utf8')) || 0;
  process.stdout.write(`CLOCK_MOVED_MS=${movedMs}\n`);
});
