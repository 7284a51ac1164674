import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'sandbox/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Most test files wait on sockets, child processes and timers rather than on the CPU, so three
    // files a core run at once (Vitest's default is one fewer than the cores: a single worker on a
    // 2-core CI machine). On that machine 1 worker took 207 s, 4 took 68 s, 6 took 55 s, 8 took 52 s.
    maxWorkers: 3 * availableParallelism(),
    // Tests start real servers on loopback ports; a busy 2-core CI machine gets some room.
    testTimeout: 20_000,
  },
});
