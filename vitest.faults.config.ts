import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `pnpm test:faults`: the fault-injection suite (issue 13). Each test starts the real processes it
// breaks (its own redis-server, API servers, schedulers), so files run one at a time and get longer
// timeouts than the main suite; `pnpm test` runs this suite after the main one. (Spread, not
// mergeConfig: that would append the main suite's include list to this one.)
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    passWithNoTests: true,
  },
});
