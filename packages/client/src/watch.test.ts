import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusError } from '@keel/apimachinery';
import { TestApiServer } from '@keel/testing';
import { RestClient, type KubeList, type KubeObject, type WatchEvent } from './index.js';
import { adminConnection, compactPast, evPath, newEvent, uniqueNs } from './testing/fixtures.js';

// Real watches on the built keel-apiserver (history compacted every second, for the 410 case).

let server: TestApiServer;
let client: RestClient;
beforeAll(async () => {
  server = await TestApiServer.start({ args: ['--store-compaction-interval=1s'] });
  await server.ready();
  client = new RestClient(adminConnection(server), { qps: -1 });
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const rvOf = (o: { metadata?: { resourceVersion?: string } }) => o.metadata?.resourceVersion ?? '';

/** Reads `n` events from a watch (and then stops it). */
async function take(stream: AsyncIterable<WatchEvent>, n: number): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  if (n === 0) return out;
  for await (const ev of stream) {
    out.push(ev);
    if (out.length === n) break;
  }
  return out;
}

describe('watch', () => {
  it('from a list resourceVersion: ADDED, MODIFIED, DELETED with the objects the writes returned', async () => {
    const ns = uniqueNs();
    const rv = rvOf(await client.list<KubeList>(evPath(ns)));
    const events = take(client.watch(evPath(ns), { resourceVersion: rv, timeoutSeconds: 30 }), 3);
    const created = await client.create(evPath(ns), newEvent(ns, 'w'));
    const patched = await client.patch(evPath(ns, 'w'), 'merge', { metadata: { labels: { x: 'y' } } });
    await client.delete(evPath(ns, 'w'));
    const got = await events;
    expect(got.slice(0, 2)).toEqual([
      { type: 'ADDED', object: created },
      { type: 'MODIFIED', object: patched },
    ]);
    expect(got[2]).toMatchObject({
      type: 'DELETED',
      object: { metadata: { name: 'w', uid: created.metadata?.uid } },
    });
  });

  it('without a resourceVersion: ADDED for what exists, then the initial-events-end BOOKMARK', async () => {
    const ns = uniqueNs();
    const a = await client.create(evPath(ns), newEvent(ns, 'a'));
    const [added, bookmark] = await take(
      client.watch(evPath(ns), { allowWatchBookmarks: true, timeoutSeconds: 30 }),
      2,
    );
    expect(added).toEqual({ type: 'ADDED', object: a });
    expect(bookmark).toMatchObject({
      type: 'BOOKMARK',
      object: { metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } },
    });
  });

  it('labelSelector and fieldSelector are sent', async () => {
    const ns = uniqueNs();
    const rv = rvOf(await client.list<KubeList>(evPath(ns)));
    const stream = client.watch(evPath(ns), {
      resourceVersion: rv,
      labelSelector: 'keep=yes',
      fieldSelector: 'metadata.name!=skip-by-name',
      timeoutSeconds: 30,
    });
    const events = take(stream, 1);
    const label = (keep: string) => ({ metadata: { name: `l-${keep}`, labels: { keep } } });
    await client.create(evPath(ns), newEvent(ns, 'x', label('no')));
    await client.create(
      evPath(ns),
      newEvent(ns, 'skip-by-name', { metadata: { name: 'skip-by-name', labels: { keep: 'yes' } } }),
    );
    const kept = await client.create(evPath(ns), newEvent(ns, 'x', label('yes')));
    expect(await events).toEqual([{ type: 'ADDED', object: kept }]);
  });

  it('ends cleanly when the server ends the stream (timeoutSeconds)', async () => {
    const ns = uniqueNs();
    const rv = rvOf(await client.list<KubeList>(evPath(ns)));
    const started = Date.now();
    const events: WatchEvent[] = [];
    for await (const ev of client.watch(evPath(ns), { resourceVersion: rv, timeoutSeconds: 1 }))
      events.push(ev);
    expect(events).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('ends quietly when the caller aborts', async () => {
    const ac = new AbortController();
    const ns = uniqueNs();
    setTimeout(() => ac.abort(), 200);
    const events: WatchEvent[] = [];
    for await (const ev of client.watch(evPath(ns), { timeoutSeconds: 30, signal: ac.signal }))
      events.push(ev);
    expect(events).toEqual([]);
  });

  it('a watch the server refuses with an HTTP error throws its Status', async () => {
    const stream = client.watch(evPath(uniqueNs()), { resourceVersionMatch: 'NotOlderThan' });
    const err = await take(stream, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StatusError);
    expect(err).toMatchObject({ code: 422, reason: 'Invalid' });
  });

  it('a compacted resourceVersion: one ERROR event carrying the 410 Expired Status, then the end', async () => {
    const ns = uniqueNs();
    const rv = rvOf(await client.create<KubeObject>(evPath(ns), newEvent(ns, 'old')));
    await compactPast(client, rv, uniqueNs('scratch'));
    const events: WatchEvent[] = [];
    for await (const ev of client.watch(evPath(ns), { resourceVersion: rv, timeoutSeconds: 30 }))
      events.push(ev);
    expect(events).toEqual([
      {
        type: 'ERROR',
        object: expect.objectContaining({
          kind: 'Status',
          status: 'Failure',
          reason: 'Expired',
          code: 410,
        }) as unknown,
      },
    ]);
  });
});
