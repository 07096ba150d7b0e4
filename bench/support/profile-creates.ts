/**
 * The profile behind bench/results/apiserver-profile.md: one API server on Redis under
 * `node --cpu-prof`, Event creates at concurrency 64 over HTTPS (a warm-up run, then
 * BENCH_DURATION seconds, default 15), then the top functions by self time in that run.
 * `npx tsx --conditions=@keel/source bench/support/profile-creates.ts [profile-dir]`
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { ADMIN_TOKEN, startRedisServer, TestApiServer } from '@keel/testing';
import { EVENT, EVENTS_PATH } from './bench-event.js';
import { summarise } from './profile-summary.js';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 15);

const dir = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'keel-profile-'));
// TestApiServer starts the daemon with these node options (NODE_OPTIONS does not take --cpu-prof).
process.env['KEEL_DAEMON_NODE_ARGS'] = `--cpu-prof --cpu-prof-dir=${dir}`;
const redis = await startRedisServer();
const server = await TestApiServer.start({ redisUrl: redis.url });
await server.ready();
const run = (duration: number) =>
  autocannon({
    url: server.url + EVENTS_PATH,
    method: 'POST',
    connections: 64,
    duration,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: EVENT,
    tlsOptions: { ca: server.ca },
  });
await run(3);
const r = await run(DURATION_S);
await server.stop();
await redis.stop();
console.log(
  `${r.requests.total} creates in ${DURATION_S} s (${r.non2xx + r.errors} failed), profile in ${dir}`,
);
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no .cpuprofile in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Parameters<typeof summarise>[0];
console.log(summarise(profile, 30, DURATION_S, r.requests.total).join('\n'));
