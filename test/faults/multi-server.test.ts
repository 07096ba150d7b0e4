import { randomBytes } from 'node:crypto';
import { startRedisServer, TestApiServer, WatchReader, type RedisServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Two and three API servers on one Redis and one --store-prefix, all doing read-modify-write of
// one ConfigMap counter with resourceVersion preconditions. Optimistic concurrency must hold
// across processes: every update that answered 200 incremented the counter exactly once (the
// final value is the number of successes, 0 lost updates), every loser got 409 Conflict, and a
// watch on the first server sees every increment, made through any server, once and in
// resourceVersion order.

const CM = '/api/v1/namespaces/default/configmaps';
/** Successful increments each server's workers make. */
const PER_SERVER = 30;
const WORKERS_PER_SERVER = 3;

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.close();
});

interface ConfigMap {
  metadata: { name: string; resourceVersion: string };
  data: { n: string };
}

async function increments(server: TestApiServer, name: string, want: number) {
  let ok = 0;
  let conflicts = 0;
  const other: string[] = [];
  while (ok < want) {
    const got = await server.request('GET', `${CM}/${name}`);
    if (got.status !== 200) {
      other.push(`GET ${got.status}`);
      continue;
    }
    const cm = got.json as ConfigMap;
    const next = { ...cm, data: { n: String(Number(cm.data.n) + 1) } };
    const put = await server.request('PUT', `${CM}/${name}`, { body: next });
    if (put.status === 200) ok++;
    else if (put.status === 409 && (put.json as { reason?: string }).reason === 'Conflict') conflicts++;
    else other.push(`PUT ${put.status} ${put.text.slice(0, 200)}`);
    if (other.length > 5) break;
  }
  return { ok, conflicts, other };
}

describe.each([2, 3])('%i API servers on one Redis', (count) => {
  let servers: TestApiServer[] = [];
  beforeAll(async () => {
    const args = [`--store-servers=${redis.url}`, `--store-prefix=/multi-${randomBytes(6).toString('hex')}`];
    servers = await Promise.all(Array.from({ length: count }, () => TestApiServer.start({ args })));
    await Promise.all(servers.map((s) => s.ready(30_000)));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('concurrent read-modify-write: final count = successful updates (0 lost), losers 409, watch on A in order', async () => {
    const [a] = servers as [TestApiServer];
    const name = `counter-${count}`;
    const created = await a.request('POST', CM, { body: { metadata: { name }, data: { n: '0' } } });
    expect(created.status).toBe(201);
    const rv0 = (created.json as ConfigMap).metadata.resourceVersion;
    const watch = await WatchReader.open(
      a,
      `${CM}?watch=true&resourceVersion=${rv0}&fieldSelector=metadata.name%3D${name}`,
    );
    expect(watch.status).toBe(200);

    const results = await Promise.all(
      servers.flatMap((s) =>
        Array.from({ length: WORKERS_PER_SERVER }, () =>
          increments(s, name, PER_SERVER / WORKERS_PER_SERVER),
        ),
      ),
    );
    const ok = results.reduce((n, r) => n + r.ok, 0);
    const conflicts = results.reduce((n, r) => n + r.conflicts, 0);
    const other = results.flatMap((r) => r.other);
    expect(other).toEqual([]);
    // Contention across processes really happened, or the test proves nothing.
    expect(conflicts).toBeGreaterThan(0);

    const final = await servers[servers.length - 1]!.request('GET', `${CM}/${name}`);
    expect(Number((final.json as ConfigMap).data.n)).toBe(ok);

    await watch.until(() => watch.events.length >= ok, 30_000);
    watch.close();
    const modified = watch.events.filter((e) => e.type === 'MODIFIED');
    expect(watch.events.length).toBe(modified.length);
    const values = modified.map((e) => Number((e.object as unknown as ConfigMap).data.n));
    // Each increment seen once, in order: 1, 2, ..., ok.
    expect(values).toEqual(Array.from({ length: ok }, (_, i) => i + 1));
    const rvs = modified.map((e) => BigInt(e.object.metadata?.resourceVersion ?? '0'));
    expect(rvs.every((rv, i) => i === 0 || rv > rvs[i - 1]!)).toBe(true);
  });
});
