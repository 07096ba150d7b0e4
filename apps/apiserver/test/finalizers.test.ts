import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, expectStatus, MERGE, unique, type Json } from './support/core.js';
import { stores } from './support/fixtures.js';
import { WatchStream } from './support/watch-stream.js';

const cms = (ns: string, name?: string, query = '') =>
  `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}${query ? `?${query}` : ''}`;
const HOLD = 'example.com/hold';

function configMap(name: string, finalizers: string[] = [HOLD]): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, finalizers }, data: { a: '1' } };
}
const meta = (o: Json) => o['metadata'] as Json;

describe.each(stores)('deletion with finalizers (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start(redisUrl ? { redisUrl } : {});
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('marks the object, keeps it until the last finalizer goes, then deletes it', async () => {
    const ns = unique('ns');
    const made = await create(server, cms(ns), configMap('held'));
    const watch = await WatchStream.open(
      server,
      cms(ns, undefined, `watch=true&resourceVersion=${String(meta(made)['resourceVersion'])}`),
    );

    // DELETE answers with the object itself, marked, instead of a Success Status.
    const marked = await expectStatus(server.request('DELETE', cms(ns, 'held')), 200);
    expect(marked['kind']).toBe('ConfigMap');
    expect(meta(marked)['deletionTimestamp']).toEqual(
      expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    );
    expect(meta(marked)['deletionGracePeriodSeconds']).toBe(0);
    expect((await watch.next()).type).toBe('MODIFIED');

    // Still there for readers; a second DELETE changes nothing.
    const got = await expectStatus(server.request('GET', cms(ns, 'held')), 200);
    expect(meta(got)['deletionTimestamp']).toBe(meta(marked)['deletionTimestamp']);
    const again = await expectStatus(server.request('DELETE', cms(ns, 'held')), 200);
    expect(meta(again)['resourceVersion']).toBe(meta(marked)['resourceVersion']);

    // Removing the last finalizer writes that update, then deletes the object at its version;
    // the answer is the state just written.
    const last = await expectStatus(
      server.request('PATCH', cms(ns, 'held'), {
        body: { metadata: { finalizers: null }, data: { a: 'last' } },
        contentType: MERGE,
      }),
      200,
    );
    expect(meta(last)['name']).toBe('held');
    expect(meta(last)['finalizers']).toBeUndefined();
    expect(last['data']).toEqual({ a: 'last' });
    expect((await server.request('GET', cms(ns, 'held'))).status).toBe(404);
    const modified = await watch.next();
    expect(modified.type).toBe('MODIFIED');
    expect(meta(modified.object)['finalizers']).toBeUndefined();
    const deleted = await watch.next();
    expect(deleted.type).toBe('DELETED');
    expect(deleted.object['data']).toEqual({ a: 'last' });
    watch.close();
  });

  it('keeps the marks an update leaves out and refuses new finalizers on a deleting object', async () => {
    const ns = unique('ns');
    await create(server, cms(ns), configMap('sticky', [HOLD, 'example.com/other']));
    const marked = await expectStatus(server.request('DELETE', cms(ns, 'sticky')), 200);

    // A PUT without the marks keeps them (and still holds one finalizer, so the object stays).
    const put = await expectStatus(
      server.request('PUT', cms(ns, 'sticky'), {
        body: { ...configMap('sticky', [HOLD]), data: { a: '2' } },
      }),
      200,
    );
    expect(meta(put)['deletionTimestamp']).toBe(meta(marked)['deletionTimestamp']);
    expect(meta(put)['deletionGracePeriodSeconds']).toBe(0);
    expect(put['data']).toEqual({ a: '2' });

    const added = await server.request('PATCH', cms(ns, 'sticky'), {
      body: { metadata: { finalizers: [HOLD, 'example.com/late'] } },
      contentType: MERGE,
    });
    expect(added.status).toBe(422);
    expect(added.text).toContain(
      'no new finalizers can be added if the object is being deleted, found new finalizers []string{\\"example.com/late\\"}',
    );
  });

  it('deletes objects without finalizers at once, and a dry run marks nothing', async () => {
    const ns = unique('ns');
    await create(server, cms(ns), configMap('plain', []));
    const gone = await expectStatus(server.request('DELETE', cms(ns, 'plain')), 200);
    expect(gone).toMatchObject({ kind: 'Status', status: 'Success' });

    await create(server, cms(ns), configMap('dry'));
    const dry = await expectStatus(server.request('DELETE', cms(ns, 'dry', 'dryRun=All')), 200);
    expect(meta(dry)['deletionTimestamp']).toBeDefined();
    const stored = await expectStatus(server.request('GET', cms(ns, 'dry')), 200);
    expect(meta(stored)['deletionTimestamp']).toBeUndefined();
  });

  it('deletecollection marks the held objects and deletes the others', async () => {
    const ns = unique('ns');
    await create(server, cms(ns), configMap('held'));
    await create(server, cms(ns), configMap('free', []));
    const result = await expectStatus(server.request('DELETE', cms(ns)), 200);
    expect((result['items'] as Json[]).map((i) => meta(i)['name']).sort()).toEqual(['free', 'held']);
    const left = await expectStatus(server.request('GET', cms(ns)), 200);
    const items = left['items'] as Json[];
    expect(items.map((i) => meta(i)['name'])).toEqual(['held']);
    expect(meta(items[0] ?? {})['deletionTimestamp']).toBeDefined();
  });
});
