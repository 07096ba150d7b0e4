import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import {
  createInformer,
  NetworkError,
  RestClient,
  type Informer,
  type InformerOptions,
  type KubeObject,
} from './index.js';
import { adminConnection, evPath, eventually, newEvent, uniqueNs } from './testing/fixtures.js';

// The informer against the built keel-apiserver: initial (paged) list, live changes, resumed
// watches, stop, and reconnect backoff.

let server: TestApiServer;
let client: RestClient;
const informers: Informer<KubeObject>[] = [];

beforeAll(async () => {
  server = await TestApiServer.start();
  await server.ready();
  client = new RestClient(adminConnection(server), { qps: -1 });
});
afterEach(async () => {
  await Promise.all(informers.splice(0).map((i) => i.stop()));
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

/** What the handlers saw, as `add a`, `update a 5->7`, `delete a`. */
function recorder() {
  const seen: string[] = [];
  const name = (o: KubeObject) => o.metadata?.name ?? '?';
  const rv = (o: KubeObject) => o.metadata?.resourceVersion ?? '?';
  return {
    seen,
    onAdd: (o: KubeObject) => seen.push(`add ${name(o)}`),
    onUpdate: (a: KubeObject, b: KubeObject) => seen.push(`update ${name(b)} ${rv(a)}->${rv(b)}`),
    onDelete: (o: KubeObject) => seen.push(`delete ${name(o)}`),
  };
}

function start(opts: Partial<InformerOptions<KubeObject>> & { listPath: string }): Informer<KubeObject> {
  const inf = createInformer({ client, backoff: { initialMs: 50, maxMs: 200 }, ...opts });
  informers.push(inf);
  inf.start();
  return inf;
}

const names = (inf: Informer<KubeObject>) => inf.keys().sort();

describe('informer', () => {
  it('a paged initial list fills the cache and calls onAdd for each object', async () => {
    const ns = uniqueNs();
    const other = uniqueNs();
    for (const n of ['a', 'b', 'c', 'd', 'e']) await client.create(evPath(ns), newEvent(ns, n));
    await client.create(evPath(other), newEvent(other, 'elsewhere'));
    const rec = recorder();
    const inf = start({ listPath: evPath(ns), pageSize: 2, ...rec });
    expect(inf.hasSynced()).toBe(false);
    expect(await inf.waitForSync()).toBe(true);
    expect(inf.hasSynced()).toBe(true);
    expect(names(inf)).toEqual(['a', 'b', 'c', 'd', 'e'].map((n) => `${ns}/${n}`));
    expect(rec.seen.sort()).toEqual(['add a', 'add b', 'add c', 'add d', 'add e']);
    // List items get the kind and apiVersion that watch objects carry.
    expect(inf.get(`${ns}/a`)).toEqual(await client.get(evPath(ns, 'a')));
    expect(inf.lastSyncResourceVersion()).toMatch(/^\d+$/);
  });

  it('later creates, updates and deletes call the matching handlers with the right objects', async () => {
    const ns = uniqueNs();
    const first = await client.create(evPath(ns), newEvent(ns, 'first'));
    const rec = recorder();
    const updates: [KubeObject, KubeObject][] = [];
    const inf = start({
      listPath: evPath(ns),
      ...rec,
      onUpdate: (a, b) => (rec.onUpdate(a, b), updates.push([a, b])),
    });
    await inf.waitForSync();
    const second = await client.create(evPath(ns), newEvent(ns, 'second'));
    const patched = await client.patch(evPath(ns, 'first'), 'merge', { metadata: { labels: { v: '2' } } });
    await client.delete(evPath(ns, 'second'));
    await eventually(() => rec.seen.length === 4);
    const rv = (o: KubeObject) => o.metadata?.resourceVersion;
    expect(rec.seen).toEqual([
      'add first',
      'add second',
      `update first ${rv(first)}->${rv(patched)}`,
      'delete second',
    ]);
    expect(updates).toEqual([[first, patched]]);
    expect(inf.list()).toEqual([patched]);
    expect(inf.get(`${ns}/second`)).toBeUndefined();
    expect(second.metadata?.name).toBe('second');
  });

  it('a watch the server ends is resumed from the last resourceVersion, without a relist', async () => {
    const ns = uniqueNs();
    const rec = recorder();
    const errors: unknown[] = [];
    let lists = 0;
    // Counts list calls; the requests themselves still go to the real server.
    const counting: InformerOptions<KubeObject>['client'] = {
      list: (path, opts) => (lists++, client.list(path, opts)),
      watch: (path, opts) => client.watch(path, opts),
    };
    const inf = start({
      client: counting,
      listPath: evPath(ns),
      watchTimeoutSeconds: 1,
      onError: (e) => errors.push(e),
      ...rec,
    });
    await inf.waitForSync();
    await client.create(evPath(ns), newEvent(ns, 'before'));
    await new Promise((r) => setTimeout(r, 2500)); // at least two server-side watch ends
    await client.create(evPath(ns), newEvent(ns, 'after'));
    await eventually(() => rec.seen.length === 2);
    expect(rec.seen).toEqual(['add before', 'add after']);
    expect([lists, errors]).toEqual([1, []]);
  });

  it('labelSelector and fieldSelector limit what is cached; transform applies to every object', async () => {
    const ns = uniqueNs();
    const labelled = (name: string, team: string) =>
      newEvent(ns, name, { metadata: { name, labels: { team } } });
    await client.create(evPath(ns), labelled('x1', 'x'));
    await client.create(evPath(ns), labelled('y1', 'y'));
    await client.create(evPath(ns), labelled('x-skip', 'x'));
    const inf = start({
      listPath: evPath(ns),
      labelSelector: 'team=x',
      fieldSelector: 'metadata.name!=x-skip',
      transform: (o) => ({ ...o, metadata: { ...o.metadata, managedFields: undefined } }),
    });
    await inf.waitForSync();
    await client.create(evPath(ns), labelled('x2', 'x'));
    await client.create(evPath(ns), labelled('y2', 'y'));
    await eventually(() => inf.keys().length === 2);
    expect(names(inf)).toEqual([`${ns}/x1`, `${ns}/x2`]);
    expect(inf.list().map((o) => o.metadata?.['managedFields'])).toEqual([undefined, undefined]);
  });

  it('addEventHandler replays the cache to onAdd; its remover stops further calls', async () => {
    const ns = uniqueNs();
    await client.create(evPath(ns), newEvent(ns, 'a'));
    const inf = start({ listPath: evPath(ns) });
    await inf.waitForSync();
    const rec = recorder();
    const remove = inf.addEventHandler(rec);
    expect(rec.seen).toEqual(['add a']);
    remove();
    await client.create(evPath(ns), newEvent(ns, 'b'));
    await eventually(() => inf.keys().length === 2);
    expect(rec.seen).toEqual(['add a']);
  });

  it('after stop() no handler runs and the cache stays as it was', async () => {
    const ns = uniqueNs();
    const rec = recorder();
    const inf = start({ listPath: evPath(ns), ...rec });
    await inf.waitForSync();
    await inf.stop();
    await client.create(evPath(ns), newEvent(ns, 'late'));
    await new Promise((r) => setTimeout(r, 300));
    expect([rec.seen, inf.keys()]).toEqual([[], []]);
  });

  it('an unreachable server: errors are reported with backoff, waitForSync ends false on stop', async () => {
    const dead = new RestClient({ ...adminConnection(server), server: new URL('https://127.0.0.1:1') });
    const errors: { err: unknown; at: number }[] = [];
    const inf = start({
      client: dead,
      listPath: evPath('x'),
      backoff: { initialMs: 40, maxMs: 160, jitter: 0 },
      onError: (err) => errors.push({ err, at: Date.now() }),
    });
    const synced = inf.waitForSync();
    await eventually(() => errors.length >= 5);
    await inf.stop();
    expect(await synced).toBe(false);
    expect(inf.hasSynced()).toBe(false);
    expect(errors.every((e) => e.err instanceof NetworkError)).toBe(true);
    const gaps = errors.slice(1, 5).map((e, i) => e.at - errors[i]!.at);
    // 40, 80, 160, 160 ms (capped), with some scheduling slack.
    expect(gaps.map((g, i) => g >= [40, 80, 160, 160][i]! - 10 && g < 1000)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    await dead.close();
  });

  it.each([
    [false, 'resumes the watch: one list'],
    [true, 'relists after each failed watch'],
  ])('resyncOnError %s %s', async (resyncOnError) => {
    const ns = uniqueNs();
    let lists = 0;
    const errors: unknown[] = [];
    const counting: InformerOptions<KubeObject>['client'] = {
      list: (path, opts) => (lists++, client.list(path, opts)),
      watch: (path, opts) => client.watch(path, opts),
    };
    // The server refuses this watch (422: resourceVersionMatch without sendInitialEvents).
    const inf = start({
      client: counting,
      listPath: evPath(ns),
      watchPath: `${evPath(ns)}?resourceVersionMatch=NotOlderThan`,
      resyncOnError,
      backoff: { initialMs: 20, maxMs: 20 },
      onError: (e) => errors.push(e),
    });
    await eventually(() => errors.length >= 3);
    await inf.stop();
    expect(errors[0]).toMatchObject({ code: 422, reason: 'Invalid' });
    if (resyncOnError) expect(lists).toBeGreaterThanOrEqual(3);
    else expect(lists).toBe(1);
  });

  it('waitForSync ends false when the informer is stopped before it ever started', async () => {
    const inf = createInformer({ client, listPath: evPath('x') });
    const synced = inf.waitForSync();
    await inf.stop();
    expect(await synced).toBe(false);
  });

  it('waitForSync ends false when its own signal aborts first', async () => {
    const dead = new RestClient({ ...adminConnection(server), server: new URL('https://127.0.0.1:1') });
    const inf = start({ client: dead, listPath: evPath('x') });
    expect(await inf.waitForSync(AbortSignal.timeout(100))).toBe(false);
    await inf.stop();
    await dead.close();
  });

  it('an unserved path falls back to the next one, and an optional collection served nowhere syncs empty', async () => {
    const ns = uniqueNs();
    await client.create(evPath(ns), newEvent(ns, 'kept'));
    const errors: unknown[] = [];
    // A group/version nobody serves answers 404, like policy/v1 on a 1.20 API server.
    const fallback = start({
      listPath: `/apis/nothing.example/v1/namespaces/${ns}/events`,
      fallbackListPaths: [evPath(ns)],
      onError: (e) => errors.push(e),
    });
    expect(await fallback.waitForSync(AbortSignal.timeout(10_000))).toBe(true);
    expect(names(fallback)).toEqual([`${ns}/kept`]);
    await client.create(evPath(ns), newEvent(ns, 'watched'));
    await eventually(() => names(fallback).includes(`${ns}/watched`));
    expect(errors).toEqual([]);

    const unserved: unknown[] = [];
    const optional = start({
      listPath: '/apis/nothing.example/v1/things',
      fallbackListPaths: ['/apis/nothing.example/v1beta1/things'],
      optional: true,
      onError: (e) => unserved.push(e),
    });
    expect(await optional.waitForSync(AbortSignal.timeout(10_000))).toBe(true);
    expect(optional.list()).toEqual([]);
    // It keeps trying (backoff 50-200 ms here) but says so once.
    await new Promise((r) => setTimeout(r, 500));
    expect(unserved).toHaveLength(1);
    expect(String(unserved[0])).toContain(
      '/apis/nothing.example/v1/things, /apis/nothing.example/v1beta1/things not served',
    );

    // Without `optional`, a collection served nowhere never syncs.
    const required = start({ listPath: '/apis/nothing.example/v1/things' });
    expect(await required.waitForSync(AbortSignal.timeout(500))).toBe(false);
  });
});
