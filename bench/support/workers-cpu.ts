/**
 * Where the CPU of Event creates goes with --workers: per process (primary, each worker), and
 * what a second server on the same Redis pays for creates it does not serve.
 * `npx tsx --conditions=@keel/source bench/support/workers-cpu.ts`
 */
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { ADMIN_TOKEN, startRedisServer, TestApiServer } from '@keel/testing';
import { EVENT, EVENTS_PATH } from './bench-event.js';
import { cpuSeconds } from './process-stats.js';
import { treePids } from './server-tree.js';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 5);
const WARMUP_S = Number(process.env['BENCH_WARMUP'] ?? 8);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
/** More server flags, e.g. --storage-media-type=application/vnd.platform.protobuf. */
const ARGS = (process.env['BENCH_SERVER_ARGS'] ?? '').split(' ').filter(Boolean);
/** Another build's apps/apiserver/dist/main.js to measure instead of this checkout's. */
const ENTRY = process.env['BENCH_ENTRY'];
const entry = ENTRY ? { entry: ENTRY } : {};
const run = async (s: TestApiServer, duration: number, watch: Record<string, number[]>) => {
  const before = Object.fromEntries(
    Object.entries(watch).map(([k, ps]) => [k, ps.map((p) => cpuSeconds(p))]),
  );
  const r = await autocannon({
    url: s.url + EVENTS_PATH,
    method: 'POST',
    connections: 64,
    duration,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: EVENT,
    tlsOptions: { ca: s.ca },
  });
  const n = Math.max(1, r.requests.total);
  const parts = Object.entries(watch).map(([k, ps]) => {
    const us = ps.map((p, i) => ((cpuSeconds(p) - before[k]![i]!) / n) * 1e6);
    return `${k}: ${us.map((u) => u.toFixed(0)).join(' + ')} = ${us.reduce((a, b) => a + b, 0).toFixed(0)} us/create`;
  });
  console.log(
    `  ${r.requests.total} creates (${r.non2xx + r.errors} failed), load ${loadavg()[0]!.toFixed(1)}; ${parts.join('; ')}`,
  );
};

const redis = await startRedisServer();
const one = await TestApiServer.start({ redisUrl: redis.url, args: ARGS, ...entry });
const other = await TestApiServer.start({ redisUrl: redis.url, args: ARGS, ...entry });
const two = await TestApiServer.start({
  redisUrl: redis.url,
  args: [...ARGS, '--workers=2'],
  ...entry,
  startTimeoutMs: 120_000,
});
await Promise.all([one.ready(), other.ready(), two.ready(120_000)]);
const pid = (s: TestApiServer) => s.process.child.pid!;
const watch = {
  '1 worker (loaded)': [pid(one)],
  'other 1-worker server (idle)': [pid(other)],
  '2 workers: primary + w1 + w2': treePids(two),
};
console.log(`warm-up, ${WARMUP_S} s each:`);
for (const s of [one, two]) await run(s, WARMUP_S, watch);
for (let i = 0; i < ROUNDS; i++) {
  console.log('load on the 1-worker server:');
  await run(one, DURATION_S, watch);
  console.log('load on the 2-worker server:');
  await run(two, DURATION_S, watch);
}
await Promise.all([one.stop(), other.stop(), two.stop()]);
await redis.stop();
