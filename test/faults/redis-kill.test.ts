import {
  startDurableRedis,
  TestApiServer,
  WatchReader,
  type ApiResponse,
  type DurableRedis,
} from '@keel/testing';
import { afterAll, describe, expect, it } from 'vitest';

// Redis killed with SIGKILL under create load and restarted over its append-only file
// (appendonly yes, appendfsync always). Unlike apps/apiserver/test/store-outage.test.ts (a clean
// SIGTERM, probes and messages), this one counts: creates answered 201 and then missing, writes
// that hung past --request-timeout, watch events seen twice or never.

const NS = '/api/v1/namespaces/kill9/configmaps';
const REQUEST_TIMEOUT_S = 10;
const WORKERS = 6;

let redis: DurableRedis | undefined;
let server: TestApiServer | undefined;
afterAll(async () => {
  await server?.stop('SIGKILL');
  await redis?.close();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Outcome {
  readonly name: string;
  readonly status: number;
  readonly start: number;
  readonly end: number;
  readonly res: ApiResponse | undefined;
}

describe('Redis kill -9 under create load (appendonly yes, appendfsync always)', () => {
  it('0 acknowledged creates lost, 0 hangs, 0 non-5xx failures, 0 duplicate or missing watch events', async () => {
    redis = await startDurableRedis({ appendfsync: 'always' });
    server = await TestApiServer.start({
      redisUrl: redis.url,
      args: [`--request-timeout=${REQUEST_TIMEOUT_S}s`],
    });
    const s = server;
    await s.ready(30_000);
    expect(
      (await s.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'kill9' } } })).status,
    ).toBe(201);
    const list0 = await s.request('GET', NS);
    const rv0 = (list0.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const watch1 = await WatchReader.open(s, `${NS}?watch=true&resourceVersion=${rv0}`);
    expect(watch1.status).toBe(200);

    let down = false;
    let stop = false;
    let seq = 0;
    const outcomes: Outcome[] = [];
    const worker = async (w: number): Promise<void> => {
      while (!stop) {
        const name = `cm-${w}-${seq++}`;
        const start = Date.now();
        let res: ApiResponse | undefined;
        try {
          res = await s.request('POST', NS, { body: { metadata: { name }, data: { n: name } } });
        } catch {
          res = undefined;
        }
        outcomes.push({ name, status: res?.status ?? 0, start, end: Date.now(), res });
        // While Redis is down the answers come at once: do not spin.
        if (down) await sleep(50);
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));

    const created = (): number => outcomes.filter((o) => o.status === 201).length;
    while (created() < 150) await sleep(20);
    const killedAt = Date.now();
    await redis.kill9();
    down = true;
    // Writes keep coming while Redis is gone; each must be a fast 5xx Status.
    await sleep(3_000);
    const readyz = await s.request('GET', '/readyz');
    await redis.restart();
    down = false;
    // Keel recovers by itself: readiness, then creates succeed again.
    const recoveredAt = Date.now();
    let ready = false;
    while (!ready && Date.now() - recoveredAt < 60_000) {
      ready = (await s.request('GET', '/readyz')).status === 200;
      if (!ready) await sleep(100);
    }
    const readyAt = Date.now();
    const before = created();
    while (created() < before + 100 && Date.now() - recoveredAt < 60_000) await sleep(20);
    stop = true;
    await load;

    expect(readyz.status).toBe(500);
    expect(readyz.text).toContain('[-]store failed');
    expect(ready).toBe(true);
    expect(created()).toBeGreaterThanOrEqual(before + 100);

    // In flight at the kill or sent before Keel was ready again: 201 or a 5xx Status, none later
    // than --request-timeout. Entirely before the kill or after readiness: 201 only.
    const during = outcomes.filter((o) => o.end >= killedAt && o.start <= readyAt);
    expect(during.filter((o) => o.status !== 201).length).toBeGreaterThan(0);
    const badDown = during.filter(
      (o) =>
        o.status !== 201 &&
        (o.status < 500 || (o.res?.json as { kind?: string } | undefined)?.kind !== 'Status'),
    );
    expect(badDown.map((o) => `${o.name}: ${o.status} ${o.res?.text ?? ''}`)).toEqual([]);
    const hung = outcomes.filter((o) => o.end - o.start > (REQUEST_TIMEOUT_S + 2) * 1000);
    expect(hung.map((o) => `${o.name}: ${o.end - o.start} ms`)).toEqual([]);
    const upFailures = outcomes.filter((o) => (o.end < killedAt || o.start > readyAt) && o.status !== 201);
    expect(upFailures.map((o) => `${o.name}: ${o.status}`)).toEqual([]);

    // 0 lost: every create answered 201 is there.
    const list = await s.request('GET', NS);
    expect(list.status).toBe(200);
    // (The namespace's kube-root-ca.crt, published before the watch began, is not the load's.)
    const present = new Set(
      (list.json as { items: { metadata: { name: string } }[] }).items
        .map((i) => i.metadata.name)
        .filter((n) => n.startsWith('cm-')),
    );
    const acknowledged = outcomes.filter((o) => o.status === 201).map((o) => o.name);
    const lost = acknowledged.filter((n) => !present.has(n));
    expect(lost.length, `lost: ${lost.slice(0, 10).join(', ')}`).toBe(0);

    // The watch: it either carried on through the outage, or ended (closed or an ERROR event)
    // and a re-watch from its last resourceVersion continues it, or that answers 410 Gone.
    const allSeen = (events: readonly { type: string; object: { metadata?: { name?: string } } }[]) => {
      const names = new Set(events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata?.name));
      return [...present].every((n) => names.has(n));
    };
    const errored = (r: WatchReader) => r.events.some((e) => e.type === 'ERROR');
    await watch1.until(() => allSeen(watch1.events) || errored(watch1), 30_000);
    watch1.close();
    const events = watch1.events.filter((e) => e.type !== 'ERROR' && e.type !== 'BOOKMARK');
    let gone = false;
    if (!allSeen(events)) {
      const lastRV = events.at(-1)?.object.metadata?.resourceVersion ?? rv0;
      const watch2 = await WatchReader.open(s, `${NS}?watch=true&resourceVersion=${lastRV}`);
      if (watch2.status === 410) gone = true;
      else {
        expect(watch2.status).toBe(200);
        await watch2.until(() => allSeen([...events, ...watch2.events]) || errored(watch2), 30_000);
        watch2.close();
        const goneEvent = watch2.events.find((e) => e.type === 'ERROR');
        if (goneEvent) {
          expect(goneEvent.object.code).toBe(410);
          gone = true;
        } else events.push(...watch2.events.filter((e) => e.type !== 'BOOKMARK'));
      }
    }
    expect(watch1.badLines).toEqual([]);
    if (!gone) {
      const counts = new Map<string, number>();
      for (const e of events) {
        const n = e.object.metadata?.name ?? '';
        if (!n.startsWith('cm-')) continue;
        expect(e.type).toBe('ADDED');
        counts.set(n, (counts.get(n) ?? 0) + 1);
      }
      const duplicates = [...counts].filter(([, c]) => c > 1).map(([n]) => n);
      const missing = [...present].filter((n) => !counts.has(n));
      const phantom = [...counts.keys()].filter((n) => !present.has(n));
      const why = `missing ${missing.join(',')}; watch1 ended ${watch1.ended}, ${watch1.events.length} events, last rv ${watch1.events.at(-1)?.object.metadata?.resourceVersion}; outcomes of missing: ${JSON.stringify(outcomes.filter((o) => missing.includes(o.name)).map((o) => [o.status, o.start - killedAt, o.end - killedAt]))}`;
      expect(
        { duplicates: duplicates.length, missing: missing.length, phantom: phantom.length },
        why,
      ).toEqual({
        duplicates: 0,
        missing: 0,
        phantom: 0,
      });
      // And in resourceVersion order.
      const rvs = events
        .filter((e) => e.object.metadata?.name?.startsWith('cm-'))
        .map((e) => Number(e.object.metadata?.resourceVersion));
      expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
    }
  });
});
