/** The processes one API server runs as (the primary and its `--workers`), and their CPU time. */
import type { TestApiServer } from '@keel/testing';
import { cpuSeconds } from './process-stats.js';

/** The primary and every worker it logged starting (restarts included). */
export function treePids(server: TestApiServer): number[] {
  const workers = [...server.process.stderr.matchAll(/^I\S+ \S+\s+(\d+) \S+\] "Starting Keel API server"/gm)];
  return [server.process.child.pid ?? -1, ...workers.map((m) => Number(m[1]))];
}

/** CPU seconds (user + system) each process has used so far, in `pids` order; one that has exited counts 0. */
export const processCpu = (pids: readonly number[]): number[] =>
  pids.map((p) => cpuSeconds(p)).map((x) => (Number.isNaN(x) ? 0 : x));

/** The processes' CPU seconds summed. */
export const treeCpu = (pids: readonly number[]): number => processCpu(pids).reduce((a, x) => a + x, 0);
