/**
 * Profiles of the list and watch fan-out figures: one API server on Redis under
 * `node --cpu-prof`, then either 10,000 Events listed 20 times (`list`) or the fan-out of
 * watch-fanout-1000.ts (`watch`, BENCH_WATCHERS watches); the top functions by self time during
 * that phase only (the fill and the opening of watches left out).
 * `npx tsx --conditions=@keel/source bench/support/profile-fanout.ts list|watch [profile-dir]`;
 * BENCH_LISTS sets how many lists (default 20; the first, which fills the encoded cache, is
 * left out of the profile window).
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { ADMIN_TOKEN, startRedisServer, TestApiServer } from '@keel/testing';
import { EVENTS_PATH, postEvents } from './bench-event.js';
import { summarise } from './profile-summary.js';
import { watchFanOut } from './watch-fanout-1000.js';

const phase = process.argv[2];
if (phase !== 'list' && phase !== 'watch') throw new Error('usage: profile-fanout.ts list|watch [dir]');
const dir = process.argv[3] ?? mkdtempSync(join(tmpdir(), 'keel-profile-'));
process.env['KEEL_DAEMON_NODE_ARGS'] = `--cpu-prof --cpu-prof-dir=${dir}`;
const redis = await startRedisServer();
const server = await TestApiServer.start({ redisUrl: redis.url, startTimeoutMs: 60_000 });
await server.ready();
const agent = new Agent({ connect: { ca: server.ca }, connections: 32 });
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
let phaseS = 0;
if (phase === 'list') {
  await postEvents(server.url, agent);
  await new Promise((r) => setTimeout(r, 1_000));
  const lists = Number(process.env['BENCH_LISTS'] ?? 20);
  const times: number[] = [];
  const listOnce = async () => {
    const t = performance.now();
    const r = await request(server.url + EVENTS_PATH, { headers: auth, dispatcher: agent });
    await r.body.arrayBuffer();
    return performance.now() - t;
  };
  const cold = await listOnce();
  const start = performance.now();
  for (let i = 1; i < lists; i++) {
    times.push(await listOnce());
  }
  phaseS = (performance.now() - start) / 1e3;
  console.log(
    `${lists} lists of 10,000: ${cold.toFixed(0)} (the first) ${times.map((t) => t.toFixed(0)).join(' ')} ms`,
  );
} else {
  const start = performance.now();
  const [r] = await watchFanOut([{ label: 'redis', server }]);
  phaseS = (performance.now() - start) / 1e3;
  console.log(`fan-out: p50 ${r?.p50.toFixed(1)} ms p99 ${r?.p99.toFixed(1)} ms, ${r?.missing} missing`);
}
// The summary's window ends 0.7 s before the profile's last sample: idle time, then the stop.
await new Promise((r) => setTimeout(r, 1_000));
await agent.close();
await server.stop();
await redis.stop();
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no .cpuprofile in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Parameters<typeof summarise>[0];
console.log(`profile in ${dir}`);
console.log(summarise(profile, 30, phaseS + 0.3).join('\n'));
