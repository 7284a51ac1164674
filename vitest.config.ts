import { defineConfig } from 'vitest/config';
import { usableCores } from './e2e/support/machine-capacity';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'sandbox/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Most test files wait on sockets, child processes and timers rather than on the CPU, so three
    // files a core run at once (Vitest's default is one fewer than the cores: a single worker on a
    // 2-core CI machine). On that machine 1 worker took 207 s, 4 took 68 s, 6 took 55 s, 8 took 52 s.
    // The cores are those this run may use: under a CPU quota (scripts/slow-machine.sh) fewer.
    maxWorkers: 3 * Math.max(1, Math.floor(usableCores())),
    // Tests start real servers on loopback ports and wait on them: a deadline, not a measure. 20 s
    // was too short for electron-builder's schema check on a machine half as fast (issue 36).
    testTimeout: 40_000,
  },
});
