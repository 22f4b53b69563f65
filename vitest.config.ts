import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test-support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // No test leaves a background query server behind unless it starts one itself.
    env: { HOMUNCULUS_NO_WARM: '1' },
    // Many end-to-end tests wait on child processes (agents, servers, a native build): one
    // worker more than there are cores keeps the cores busy (on 2 cores: 3 min instead of 5.7).
    maxWorkers: availableParallelism() + 1,
  },
});
