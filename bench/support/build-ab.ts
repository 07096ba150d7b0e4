/**
 * A/B of two builds of keel-apiserver on Event creates: the build in another checkout (A, the
 * baseline) against this tree's (B), on one Redis, in alternating turns of one run
 * (support/create-ab.ts), at c=64 by default. Both builds must be built (`pnpm build` in each).
 *
 *   npx tsx --conditions=@keel/source bench/support/build-ab.ts <baseline-checkout> [<candidate-checkout>] [--memory]
 *
 * BENCH_TURNS, BENCH_DURATION and BENCH_CONCURRENCY (comma-separated) tune the run. The figure to
 * read is each side's server CPU per create, which a loaded machine disturbs far less than
 * throughput; the load average is printed with it.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { ADMIN_TOKEN, startRedisServer, TestApiServer } from '@keel/testing';
import { compareCreates } from './create-ab.js';

const [baselineRoot, candidateRoot] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
if (!baselineRoot)
  throw new Error('usage: build-ab.ts <baseline-checkout> [<candidate-checkout>] [--memory]');
const entryOf = (root: string) => {
  const entry = join(resolve(root), 'apps', 'apiserver', 'dist', 'main.js');
  if (!existsSync(entry)) throw new Error(`no build at ${entry} (run pnpm build there)`);
  return entry;
};
const baselineEntry = entryOf(baselineRoot);
const candidateEntry = candidateRoot === undefined ? undefined : entryOf(candidateRoot);
const memory = process.argv.includes('--memory');
const concurrencies = (process.env['BENCH_CONCURRENCY'] ?? '64').split(',').map(Number);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const redis = memory ? undefined : await startRedisServer();
const opts = redis ? { redisUrl: redis.url } : {};
const a = await TestApiServer.start({ ...opts, entry: baselineEntry });
const b = await TestApiServer.start({ ...opts, ...(candidateEntry ? { entry: candidateEntry } : {}) });
try {
  console.log(`load average before: ${load()}`);
  const results = await compareCreates({
    heading: `Event creates, ${baselineRoot} (A) against ${candidateRoot ?? 'this tree'} (B)`,
    baseline: { server: a, label: 'A' },
    candidate: { server: b, label: 'B' },
    token: ADMIN_TOKEN,
    targetPercent: 0,
    concurrencies,
    store: memory ? 'memory store' : 'Redis',
  });
  for (const r of results) {
    const ratio = r.candidate.cpuUsPerRequest / r.baseline.cpuUsPerRequest;
    console.log(
      `  c=${r.connections}: CPU per create A ${r.baseline.cpuUsPerRequest.toFixed(0)} us, ` +
        `B ${r.candidate.cpuUsPerRequest.toFixed(0)} us = ${ratio.toFixed(3)}x ` +
        `(median of the turns' ratios ${r.cpuRatio.toFixed(3)}x)`,
    );
  }
  console.log(`load average after: ${load()}`);
} finally {
  await Promise.all([a.stop(), b.stop()]);
  await redis?.stop();
}
