import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `pnpm test:containers`: compose.yaml's images built and run with podman (issue 16;
// docs/operations.md, "Testing the images"). Kept out of `pnpm test`: a cold run builds a Debian
// base and both images first (about 8 minutes here). Without podman its tests are skipped, loudly.
// (Spread, not mergeConfig: that would append the main suite's include list and its Redis setup.)
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/containers/**/*.test.ts'],
    globalSetup: [],
    testTimeout: 120_000,
    hookTimeout: 1_500_000,
    fileParallelism: false,
  },
});
