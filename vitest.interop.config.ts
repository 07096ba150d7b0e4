import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `pnpm test:interop`: Keel next to the reference control plane (kube-apiserver, kube-scheduler
// 1.20.2 and etcd from $REFERENCE_BIN, default /opt/reference; docs/interop.md). Each file starts
// and stops its own processes, so files run one at a time with long timeouts; without the
// reference binaries every file fails with the names of the missing ones (never a silent pass).
// (Spread, not mergeConfig: that would append the main suite's include list and its Redis setup.)
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/interop/**/*.test.ts'],
    globalSetup: [],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
