/**
 * Vitest global setup: one Redis for the whole test run. With REDIS_URL set, tests use that
 * server; otherwise a throwaway redis-server starts on a free port (never 6379) and stops after
 * the run. Tests read the URL with `inject('redisUrl')` and isolate themselves with a random
 * key prefix each.
 */
import type { TestProject } from 'vitest/node';
import { startRedisServer } from '@keel/testing';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fromEnv = process.env['REDIS_URL'];
  if (fromEnv) {
    project.provide('redisUrl', fromEnv);
    return () => Promise.resolve();
  }
  const server = await startRedisServer();
  project.provide('redisUrl', server.url);
  return () => server.close();
}
