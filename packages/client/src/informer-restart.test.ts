import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import {
  createInformer,
  NetworkError,
  RestClient,
  type Informer,
  type KubeList,
  type KubeObject,
} from './index.js';
import { adminConnection, compactPast, evPath, eventually, newEvent, uniqueNs } from './testing/fixtures.js';

// The informer's API server goes away and comes back on the same address and the same Redis
// data, while a second server on that data keeps taking writes. The informer must end with the
// cache the cluster has, having told its handlers about every change, whether it gets there by
// resuming its watch or (history compacted meanwhile) by relisting.

const args = [
  `--store-servers=${inject('redisUrl')}`,
  `--store-prefix=/client-restart-${randomBytes(6).toString('hex')}`,
];

/** Compacts the shared history past `rv` through a short-lived server that compacts every second. */
async function compactSharedPast(rv: string): Promise<void> {
  const compactor = await TestApiServer.start({ args: [...args, '--store-compaction-interval=1s'] });
  const c = new RestClient(adminConnection(compactor), { qps: -1 });
  try {
    await compactor.ready();
    await compactPast(c, rv, uniqueNs('scratch'));
  } finally {
    await c.close();
    await compactor.stop();
  }
}

let writerServer: TestApiServer;
let writer: RestClient;
let served: TestApiServer;
let port: string;

beforeAll(async () => {
  [writerServer, served] = await Promise.all([TestApiServer.start({ args }), TestApiServer.start({ args })]);
  await Promise.all([writerServer.ready(), served.ready()]);
  writer = new RestClient(adminConnection(writerServer), { qps: -1 });
  port = new URL(served.url).port;
});
afterAll(async () => {
  await writer.close();
  await Promise.all([writerServer.stop(), served.stop()]);
});

/**
 * Restarts the informer's server on the same port (a new self-signed CA, hence insecure TLS
 * below). The helper's own `url` then names the port it first picked, so it is not used: start()
 * has already waited for "Serving securely", and the informer retries until the server is ready.
 */
async function restart(whileDown: () => Promise<void>): Promise<void> {
  await served.stop();
  await whileDown();
  served = await TestApiServer.start({ args: [...args, `--secure-port=${port}`] });
}

function recorder() {
  const seen: string[] = [];
  const name = (o: KubeObject) => o.metadata?.name ?? '?';
  return {
    seen,
    onAdd: (o: KubeObject) => seen.push(`add ${name(o)}`),
    onUpdate: (_: KubeObject, o: KubeObject) =>
      seen.push(`update ${name(o)} ${String(o.metadata?.labels?.['v'])}`),
    onDelete: (o: KubeObject) => seen.push(`delete ${name(o)}`),
  };
}

describe('informer across an API server restart (shared Redis store)', () => {
  let ns: string;
  let client: RestClient;
  let informer: Informer<KubeObject>;
  const rec = recorder();
  const errors: unknown[] = [];

  beforeAll(async () => {
    ns = uniqueNs();
    for (const n of ['keep', 'change', 'drop']) await writer.create(evPath(ns), newEvent(ns, n));
    client = new RestClient({
      server: new URL(served.url),
      token: 'admin-token',
      insecureSkipTLSVerify: true,
    });
    informer = createInformer({
      client,
      listPath: evPath(ns),
      pageSize: 2,
      backoff: { initialMs: 50, maxMs: 300 },
      onError: (e) => errors.push(e),
      ...rec,
    });
    informer.start();
    await informer.waitForSync();
  });
  afterAll(async () => {
    await informer.stop();
    await client.close();
  });

  const truth = async () =>
    (await writer.list<KubeList>(evPath(ns))).items.map((o) => o.metadata?.name).sort();
  const cached = () =>
    informer
      .list()
      .map((o) => o.metadata?.name)
      .sort();

  it('starts with the three events', () => {
    expect([cached(), rec.seen.sort()]).toEqual([
      ['change', 'drop', 'keep'],
      ['add change', 'add drop', 'add keep'],
    ]);
  });

  it('history compacted while down: relists, and handlers see the delete, the update and the add', async () => {
    rec.seen.length = 0;
    const before = informer.lastSyncResourceVersion();
    await restart(async () => {
      await writer.delete(evPath(ns, 'drop'));
      await writer.patch(evPath(ns, 'change'), 'merge', { metadata: { labels: { v: '2' } } });
      await writer.create(evPath(ns), newEvent(ns, 'new'));
      // The informer cannot resume from `before` any more: it must relist.
      await compactSharedPast(before);
    });
    await eventually(() => rec.seen.length === 3);
    expect(rec.seen.sort()).toEqual(['add new', 'delete drop', 'update change 2']);
    expect(cached()).toEqual(await truth());
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.some((e) => e instanceof NetworkError)).toBe(true);
  });

  it('history still there (no compaction now): resumes the watch, in order, no relist', async () => {
    rec.seen.length = 0;
    await restart(async () => {
      await writer.patch(evPath(ns, 'keep'), 'merge', { metadata: { labels: { v: '3' } } });
      await writer.delete(evPath(ns, 'new'));
    });
    await eventually(() => rec.seen.length === 2);
    // Watch order; a relist would report the delete before the update.
    expect(rec.seen).toEqual(['update keep 3', 'delete new']);
    expect(cached()).toEqual(await truth());
    // And it keeps following live changes.
    await writer.create(evPath(ns), newEvent(ns, 'live'));
    await eventually(() => informer.get(`${ns}/live`) !== undefined);
    expect(cached()).toEqual(await truth());
  });
});
