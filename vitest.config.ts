import { defineConfig } from 'vitest/config';

// Workspace imports resolve to each package's src/ through the "@keel/source" export condition,
// so tests never wait for a build; the smoke tests run the built dist/ with plain node instead.
const conditions = ['@keel/source', 'import', 'module', 'node', 'default'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './scripts/summary-reporter.ts'],
    pool: 'forks',
    // One real redis-server for the run (or REDIS_URL): the Redis suites never use a mock.
    globalSetup: ['./test/global-setup.ts'],
  },
});
