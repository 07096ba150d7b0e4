/**
 * `pnpm bench workers`: Event creates per second through one API server port on one Redis at
 * c=64 with --workers 1 (the baseline), 2 and one per core, all in this run. The servers run side
 * by side and take alternating turns, so drift on a shared machine falls on all of them; the
 * figure is the median turn. The CPU the whole process tree and Redis used per create is printed
 * beside it: workers buy throughput only where there are idle cores to run them.
 */
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { ADMIN_TOKEN, startRedisServer, TestApiServer } from '@keel/testing';
import { treeCpu, treePids } from './support/server-tree.js';
import { EVENT, EVENTS_PATH } from './support/bench-event.js';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 3);
const TURNS = Number(process.env['BENCH_TURNS'] ?? 5);
const CONNECTIONS = 64;

interface Turn {
  readonly rps: number;
  readonly requests: number;
  readonly serverCpuS: number;
  readonly redisCpuS: number;
  readonly errors: number;
}

/** CPU seconds a redis-server has used, from its own INFO. */
async function redisCpu(port: number): Promise<number> {
  const { stdout } = await promisify(execFile)('redis-cli', ['-p', String(port), 'INFO', 'cpu']);
  const field = (f: string): number => Number(new RegExp(`^${f}:([\\d.]+)`, 'm').exec(stdout)?.[1] ?? NaN);
  return field('used_cpu_sys') + field('used_cpu_user');
}

async function turn(server: TestApiServer, redisPort: number, duration: number): Promise<Turn> {
  const pids = treePids(server);
  const cpu0 = treeCpu(pids);
  const redis0 = await redisCpu(redisPort);
  const r = await autocannon({
    url: server.url + EVENTS_PATH,
    method: 'POST',
    connections: CONNECTIONS,
    duration,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: EVENT,
    tlsOptions: { ca: server.ca },
  });
  return {
    rps: r.requests.average,
    requests: r.requests.total,
    serverCpuS: treeCpu(pids) - cpu0,
    redisCpuS: (await redisCpu(redisPort)) - redis0,
    errors: r.non2xx + r.errors + r.timeouts,
  };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);

export async function run(): Promise<void> {
  const cores = availableParallelism();
  const counts = [...new Set([1, 2, cores])].sort((a, b) => a - b);
  const redis = await startRedisServer();
  const servers: { count: number; server: TestApiServer; turns: Turn[] }[] = [];
  try {
    for (const count of counts) {
      const server = await TestApiServer.start({ redisUrl: redis.url, args: [`--workers=${count}`] });
      await server.ready(120_000);
      servers.push({ count, server, turns: [] });
    }
    // Warm-up: JIT and first allocations in every worker stay out of the figures.
    for (const s of servers) await turn(s.server, redis.port, 2);
    for (let i = 0; i < TURNS; i++) {
      // The order rotates, so no configuration always runs right after another.
      for (let j = 0; j < servers.length; j++) {
        const s = servers[(i + j) % servers.length]!;
        s.turns.push(await turn(s.server, redis.port, DURATION_S));
      }
    }
    console.log(
      `Event creates through one port on one Redis, c=${CONNECTIONS}, ${TURNS} rotating turns of ` +
        `${DURATION_S}s, ${cores} cores (median turn; CPU per create of the process tree and of Redis):`,
    );
    const base = median(servers[0]!.turns.map((t) => t.rps));
    for (const { count, turns } of servers) {
      const rps = median(turns.map((t) => t.rps));
      const requests = sum(turns.map((t) => t.requests));
      const serverUs = (sum(turns.map((t) => t.serverCpuS)) / requests) * 1e6;
      const redisUs = (sum(turns.map((t) => t.redisCpuS)) / requests) * 1e6;
      const errors = sum(turns.map((t) => t.errors));
      console.log(
        `  --workers=${String(count).padEnd(3)} ${rps.toFixed(0).padStart(6)} creates/s` +
          `  = ${(rps / base).toFixed(2)}x of --workers=1` +
          `   (${serverUs.toFixed(0)} us server CPU, ${redisUs.toFixed(0)} us Redis CPU per create)` +
          (errors ? `  (${errors} errors)` : ''),
      );
    }
  } finally {
    await Promise.all(servers.map((s) => s.server.stop()));
    await redis.close();
  }
}
