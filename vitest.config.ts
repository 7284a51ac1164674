import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'sandbox/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    // Tests start real servers on loopback ports; a slow 2-core CI machine gets some room.
    testTimeout: 20_000,
  },
});
