/**
 * A list of 10,000 ConfigMaps served from the watch cache against the same list read from Redis
 * (`--watch-cache=false`), both servers on one Redis with one store prefix and measured in the
 * same run, alternating, so the machine's noise hits both alike. Both a consistent list (`""`:
 * the cache first catches up with the store's current revision) and `resourceVersion=0`.
 * Then watches, the same way (see watch-fanout.ts): 200 watches opened at `resourceVersion=0`
 * until each has its initial state, and one create seen by 200 open watches.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'undici';
import { ADMIN_TOKEN, startRedisServer, TestApiServer } from '@keel/testing';
import { watchFigures } from './support/watch-fanout.js';

const OBJECTS = 10_000;
const ROUNDS = 5;
const LISTS_PER_ROUND = 10;
const PATH = '/api/v1/namespaces/default/configmaps';

async function fill(server: TestApiServer): Promise<void> {
  const agent = new Agent({ connect: { ca: server.ca }, connections: 32 });
  let next = 0;
  const worker = async () => {
    while (next < OBJECTS) {
      const i = next++;
      const body = JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, labels: { app: 'bench' } },
        data: { key: 'x'.repeat(200) },
      });
      const r = await request(server.url + PATH, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body,
        dispatcher: agent,
      });
      await r.body.dump();
      if (r.statusCode !== 201) throw new Error(`create cm-${i}: ${r.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  await agent.close();
}

/** Milliseconds per list, the median of LISTS_PER_ROUND. */
async function listTime(server: TestApiServer, agent: Agent, query: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < LISTS_PER_ROUND; i++) {
    const start = process.hrtime.bigint();
    const r = await request(server.url + PATH + query, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      dispatcher: agent,
    });
    const body = (await r.body.json()) as { items: unknown[] };
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    // One more than the fill: the namespace's kube-root-ca.crt.
    if (body.items.length !== OBJECTS + 1) throw new Error(`listed ${body.items.length} objects`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? NaN;
}

export async function run(): Promise<void> {
  const redis = await startRedisServer();
  const store = [`--store-servers=${redis.url}`, `--store-prefix=/bench-${randomBytes(4).toString('hex')}`];
  const cached = await TestApiServer.start({ args: store });
  const uncached = await TestApiServer.start({ args: [...store, '--watch-cache=false'] });
  try {
    await Promise.all([cached.ready(), uncached.ready()]);
    await fill(cached);
    const agents = [cached, uncached].map((s) => new Agent({ connect: { ca: s.ca } }));
    const [cachedAgent, uncachedAgent] = agents as [Agent, Agent];
    for (const [label, query] of [
      ['consistent list (resourceVersion unset)', ''],
      ['list at resourceVersion=0', '?resourceVersion=0'],
    ] as const) {
      // Warm-up: fills the cache and the encoded-item caches of both servers.
      await listTime(cached, cachedAgent, query);
      await listTime(uncached, uncachedAgent, query);
      const ratios: number[] = [];
      const cacheMs: number[] = [];
      const redisMs: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const c = await listTime(cached, cachedAgent, query);
        const u = await listTime(uncached, uncachedAgent, query);
        cacheMs.push(c);
        redisMs.push(u);
        ratios.push(u / c);
      }
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
      console.log(
        `${label}, ${OBJECTS} objects: watch cache ${med(cacheMs).toFixed(1)} ms, Redis ${med(redisMs).toFixed(1)} ms, ` +
          `watch cache ${med(ratios).toFixed(2)}x faster (median of ${ROUNDS} alternating rounds, ${LISTS_PER_ROUND} lists each)`,
      );
    }
    await Promise.all(agents.map((a) => a.close()));
    await watchFigures(cached, uncached);
  } finally {
    await Promise.all([cached.stop(), uncached.stop()]);
    await redis.stop();
  }
}
