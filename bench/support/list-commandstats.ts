/**
 * What Redis does for one list of 10,000 Events: one API server (this build, or the
 * `apps/apiserver/dist/main.js` given as the argument) on a Redis of its own, 10,000 creates, a
 * warm-up list, then BENCH_LISTS lists (default 10) between CONFIG RESETSTAT and INFO
 * commandstats; prints each command's calls and µs per list, and Redis's CPU per list.
 * `npx tsx --conditions=@keel/source bench/support/list-commandstats.ts [entry]`
 */
import { Redis } from 'ioredis';
import { Agent, request } from 'undici';
import { ADMIN_TOKEN, startRedisServer, TestApiServer } from '@keel/testing';
import { EVENTS_PATH, postEvents } from './bench-event.js';
import { cpuSeconds } from './process-stats.js';

const entry = process.argv[2];
const lists = Number(process.env['BENCH_LISTS'] ?? 10);
const redis = await startRedisServer();
const server = await TestApiServer.start({
  redisUrl: redis.url,
  startTimeoutMs: 60_000,
  ...(entry ? { entry } : {}),
});
await server.ready();
const admin = new Redis(redis.url);
const agent = new Agent({ connect: { ca: server.ca }, connections: 32 });
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
try {
  await postEvents(server.url, agent);
  const listOnce = async () => {
    const r = await request(server.url + EVENTS_PATH, { headers: auth, dispatcher: agent });
    await r.body.arrayBuffer();
  };
  await listOnce();
  await admin.config('RESETSTAT');
  const cpu = cpuSeconds(redis.pid);
  for (let i = 0; i < lists; i++) await listOnce();
  const redisMs = ((cpuSeconds(redis.pid) - cpu) * 1e3) / lists;
  const info = await admin.info('commandstats');
  console.log(`per list of 10,000 (${lists} lists), Redis CPU ${redisMs.toFixed(1)} ms:`);
  for (const m of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+),usec=(\d+),usec_per_call=([\d.]+)/gm))
    console.log(
      `  ${m[1]!.padEnd(14)} ${(Number(m[2]) / lists).toFixed(1).padStart(9)} calls ${(Number(m[3]) / lists / 1e3).toFixed(2).padStart(7)} ms ${m[4]!.padStart(9)} µs/call`,
    );
} finally {
  await agent.close();
  await admin.quit();
  await server.stop();
  await redis.stop();
}
