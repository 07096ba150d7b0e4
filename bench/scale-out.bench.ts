/**
 * `pnpm bench scale-out [--write-chart]`: creates and lists under a mixed load over several
 * resources (ConfigMaps, Secrets, Events, Leases), served by 1, 2 and 4 API server processes on
 * one Redis and on a 3-master Redis Cluster (one hash tag per resource, so the resources share the
 * masters). Prints requests per second per configuration against the 1-server-on-one-Redis
 * baseline of the same run, the CPU each Redis and the API servers used, and the keys per master.
 * `--write-chart` also writes docs/images/scale-out.svg. Knobs: BENCH_DURATION (seconds per
 * turn, default 5), BENCH_TURNS (alternating turns per configuration, default 3), BENCH_CONNECTIONS
 * (concurrent requests, default 32).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import {
  ADMIN_TOKEN,
  startRedisCluster,
  startRedisServer,
  TestApiServer,
  type RedisCluster,
  type RedisServer,
} from '@keel/testing';
import { barChartSvg } from './support/bar-chart.js';
import { cpuSeconds } from './support/process-stats.js';
import { ProgressLine } from './support/progress.js';

const DURATION_S = Number(process.env['BENCH_DURATION'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 32);
const TURNS = Number(process.env['BENCH_TURNS'] ?? 3);
/** The servers' default --store-prefix: which master a resource lands on follows from it. */
const PREFIX = '/registry';
const SERVER_COUNTS = [1, 2, 4] as const;
const CHART = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'images', 'scale-out.svg');
const run$ = promisify(execFile);

interface Op {
  readonly method: 'POST' | 'GET';
  readonly path: string;
  readonly body?: string;
}

/** The n-th operation of a worker: four creates over four resources, then one paged list. */
function op(ns: string, worker: string, n: number): Op {
  const name = `${worker}-${n}`;
  const meta = { name, namespace: ns };
  switch (n % 5) {
    case 0:
      return {
        method: 'POST',
        path: `/api/v1/namespaces/${ns}/configmaps`,
        body: JSON.stringify({ metadata: meta, data: { v: 'x'.repeat(100) } }),
      };
    case 1:
      return {
        method: 'POST',
        path: `/api/v1/namespaces/${ns}/secrets`,
        body: JSON.stringify({ metadata: meta, stringData: { v: 'x'.repeat(100) } }),
      };
    case 2:
      return {
        method: 'POST',
        path: `/api/v1/namespaces/${ns}/events`,
        body: JSON.stringify({
          metadata: meta,
          involvedObject: { kind: 'Pod', namespace: ns, name },
          reason: 'Bench',
          message: 'scale-out',
          type: 'Normal',
        }),
      };
    case 3:
      return {
        method: 'POST',
        path: `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`,
        body: JSON.stringify({ metadata: meta, spec: { holderIdentity: name } }),
      };
    default: {
      // Pages go to the store (the watch cache serves only whole lists), so lists load Redis too.
      const resource = ['configmaps', 'secrets', 'events'][Math.floor(n / 5) % 3];
      return { method: 'GET', path: `/api/v1/namespaces/${ns}/${resource}?limit=50` };
    }
  }
}

interface Load {
  readonly creates: number;
  readonly lists: number;
  readonly errors: number;
}

/** CONNECTIONS workers spread round-robin over the servers, for DURATION_S seconds. */
async function load(servers: readonly TestApiServer[], ns: string, seconds: number): Promise<Load> {
  const agents = servers.map(
    (s) => new Agent({ connect: { ca: s.ca }, connections: Math.ceil(CONNECTIONS / servers.length) }),
  );
  const until = Date.now() + seconds * 1000;
  let creates = 0;
  let lists = 0;
  let errors = 0;
  // Each call of load() writes new names (the warm-up and the measured run share a namespace).
  const tag = randomBytes(3).toString('hex');
  const worker = async (w: number): Promise<void> => {
    const server = servers[w % servers.length]!;
    const agent = agents[w % servers.length]!;
    for (let n = 0; Date.now() < until; n++) {
      const o = op(ns, `${tag}-w${w}`, n);
      const r = await request(server.url + o.path, {
        method: o.method,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...(o.body ? { 'content-type': 'application/json' } : {}),
        },
        ...(o.body ? { body: o.body } : {}),
        dispatcher: agent,
      });
      await r.body.dump();
      if (r.statusCode >= 300) errors++;
      else if (o.method === 'POST') creates++;
      else lists++;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, w) => worker(w)));
  await Promise.all(agents.map((a) => a.close()));
  return { creates, lists, errors };
}

/** Keys on one Redis by the store root in their hash tag (`{/registry/pods}:...` → `/pods`). */
async function keysByRoot(port: number): Promise<Map<string, number>> {
  const { stdout } = await run$('redis-cli', ['-p', String(port), '--scan', '--pattern', `{${PREFIX}*`], {
    maxBuffer: 256 * 1024 * 1024,
  });
  const counts = new Map<string, number>();
  for (const key of stdout.split('\n')) {
    const tag = /^\{([^}]*)\}/.exec(key)?.[1];
    if (tag === undefined) continue;
    const root = tag.slice(PREFIX.length) || '(none)';
    counts.set(root, (counts.get(root) ?? 0) + 1);
  }
  return counts;
}

/** CPU seconds a redis-server has used, from its own INFO. */
async function redisCpu(port: number): Promise<number> {
  const { stdout } = await run$('redis-cli', ['-p', String(port), 'INFO', 'cpu']);
  const field = (f: string): number => Number(new RegExp(`^${f}:([\\d.]+)`, 'm').exec(stdout)?.[1] ?? NaN);
  return field('used_cpu_sys') + field('used_cpu_user');
}

interface Row {
  readonly store: string;
  readonly servers: number;
  readonly createsPerS: number;
  readonly listsPerS: number;
  readonly errors: number;
  /** CPU cores the busiest Redis process used. */
  readonly busiestRedis: number;
  readonly allRedis: number;
  readonly apiServers: number;
}

/** One store with its API servers started, measured with 1, 2 or 4 of them. */
interface Setup {
  readonly store: string;
  readonly servers: readonly TestApiServer[];
  readonly redisPorts: () => Promise<number[]>;
}

async function setUp(
  store: string,
  storeArgs: readonly string[],
  redisPorts: () => Promise<number[]>,
): Promise<Setup> {
  const servers: TestApiServer[] = [];
  try {
    for (let i = 0; i < Math.max(...SERVER_COUNTS); i++)
      servers.push(await TestApiServer.start({ args: storeArgs }));
    await Promise.all(servers.map((s) => s.ready(30_000)));
    for (const count of SERVER_COUNTS)
      await servers[0]!.request('POST', '/api/v1/namespaces', {
        body: { metadata: { name: `bench-${count}` } },
      });
  } catch (err) {
    await Promise.all(servers.map((s) => s.stop()));
    throw err;
  }
  return { store, servers, redisPorts };
}

async function measure(setup: Setup, count: number): Promise<Row> {
  const using = setup.servers.slice(0, count);
  const ns = `bench-${count}`;
  await load(using, ns, 1); // warm-up: connections, caches, JIT
  const ports = await setup.redisPorts();
  const redisBefore = await Promise.all(ports.map(redisCpu));
  const apiBefore = using.map((s) => cpuSeconds(s.process.child.pid));
  const start = process.hrtime.bigint();
  const r = await load(using, ns, DURATION_S);
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  const redisUsed = (await Promise.all(ports.map(redisCpu))).map((c, i) => (c - redisBefore[i]!) / elapsed);
  const apiUsed = using.map((s, i) => cpuSeconds(s.process.child.pid) - apiBefore[i]!);
  return {
    store: setup.store,
    servers: count,
    createsPerS: r.creates / elapsed,
    listsPerS: r.lists / elapsed,
    errors: r.errors,
    busiestRedis: Math.max(...redisUsed),
    allRedis: redisUsed.reduce((a, b) => a + b, 0),
    apiServers: apiUsed.reduce((a, b) => a + b, 0) / elapsed,
  };
}

const total = (r: Row): number => r.createsPerS + r.listsPerS;

/** The turn with the median total throughput, so one configuration's figures stay together. */
function median(turns: readonly Row[]): Row {
  const sorted = [...turns].sort((a, b) => total(a) - total(b));
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<void> {
  let redis: RedisServer | undefined;
  let cluster: RedisCluster | undefined;
  const setups: Setup[] = [];
  try {
    redis = await startRedisServer();
    const single = redis;
    setups.push(
      await setUp('one Redis', [`--store-servers=${single.url}`], () => Promise.resolve([single.port])),
    );
    cluster = await startRedisCluster({ masters: 3 });
    const c = cluster;
    setups.push(
      await setUp('Redis Cluster, 3 masters', [`--store-servers=${c.urls.join(',')}`], async () =>
        (await c.nodes()).filter((n) => n.role === 'master').map((n) => n.port),
      ),
    );

    // Alternating turns, so the shared machine's changing load hits every configuration alike.
    const turns = new Map<string, Row[]>();
    const progress = new ProgressLine();
    const started = Date.now();
    // Each measurement is a 1 s warm-up and the measured run.
    const totalS = TURNS * setups.length * SERVER_COUNTS.length * (DURATION_S + 1);
    for (let t = 0; t < TURNS; t++)
      for (const setup of setups)
        for (const count of SERVER_COUNTS) {
          progress.update({
            elapsedS: (Date.now() - started) / 1000,
            totalS,
            note: `turn ${t + 1}/${TURNS}: ${setup.store}, ${count} server(s)`,
          });
          const row = await measure(setup, count);
          progress.update({
            elapsedS: (Date.now() - started) / 1000,
            totalS,
            reqPerS: total(row),
            errors: row.errors,
            note: `turn ${t + 1}/${TURNS}: ${setup.store}, ${count} server(s) done`,
          });
          const key = `${setup.store}/${count}`;
          turns.set(key, [...(turns.get(key) ?? []), row]);
        }
    progress.done();
    const rows = [...turns.values()].map(median);

    const base = rows[0]!;
    console.log(
      `${DURATION_S} s per turn, median of ${TURNS} alternating turns, ${CONNECTIONS} concurrent requests, ` +
        `4 creates (ConfigMap, Secret, Event, Lease) per paged list; CPU in cores used (this machine has ` +
        `${cpus().length}, shared with other work)`,
    );
    console.log(
      'store                     servers  creates/s  lists/s  total/s  vs baseline  errors  busiest Redis  all Redis  API servers',
    );
    for (const r of rows)
      console.log(
        `${r.store.padEnd(26)}${String(r.servers).padStart(7)}${r.createsPerS.toFixed(0).padStart(11)}` +
          `${r.listsPerS.toFixed(0).padStart(9)}${total(r).toFixed(0).padStart(9)}` +
          `${`${(total(r) / total(base)).toFixed(2)}x`.padStart(13)}${String(r.errors).padStart(8)}` +
          `${r.busiestRedis.toFixed(2).padStart(15)}${r.allRedis.toFixed(2).padStart(11)}${r.apiServers.toFixed(2).padStart(13)}`,
      );

    const nodes = await c.nodes();
    console.log(`keys per master (Redis Cluster, the default --store-prefix ${PREFIX}):`);
    for (const m of nodes.filter((n) => n.role === 'master')) {
      const byRoot = await keysByRoot(m.port);
      const keys = [...byRoot.values()].reduce((a, b) => a + b, 0);
      const roots = [...byRoot].sort((a, b) => b[1] - a[1]).map(([root, n]) => `${root} ${n}`);
      const slots = m.slots.map(([a, b]) => `${a}-${b}`).join(',');
      console.log(`  master :${m.port} (slots ${slots}): ${keys} keys: ${roots.join(', ')}`);
    }

    if (process.argv.includes('--write-chart')) {
      mkdirSync(dirname(CHART), { recursive: true });
      writeFileSync(
        CHART,
        barChartSvg({
          title: 'Creates + lists per second, mixed load over 4 resources',
          yLabel: 'requests per second',
          categories: SERVER_COUNTS.map((n) => `${n} API server${n > 1 ? 's' : ''}`),
          series: setups.map(({ store }) => ({
            name: store,
            values: SERVER_COUNTS.map((n) => {
              const r = rows.find((x) => x.store === store && x.servers === n);
              return r ? total(r) : 0;
            }),
          })),
          note:
            `pnpm bench scale-out: median of ${TURNS} turns of ${DURATION_S} s, ${CONNECTIONS} concurrent requests; ` +
            `every process on one shared 2-core machine`,
        }),
      );
      console.log(`chart written to ${CHART}`);
    }
  } finally {
    await Promise.all(setups.flatMap((s) => s.servers.map((x) => x.stop())));
    await cluster?.close();
    await redis?.close();
  }
}
