import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusError, type Status } from '@keel/apimachinery';
import { TestApiServer } from '@keel/testing';
import { NetworkError, RestClient, type KubeList, type KubeObject } from './index.js';
import { adminConnection, evPath, newEvent, uniqueNs } from './testing/fixtures.js';

// CRUD on events through the REST client against the built keel-apiserver, and what failures
// become: the server's Status as a StatusError, text bodies as a StatusError too, and
// transport problems as a NetworkError.

let server: TestApiServer;
let client: RestClient;
beforeAll(async () => {
  server = await TestApiServer.start();
  await server.ready();
  client = new RestClient(adminConnection(server), { qps: -1 });
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

const meta = (o: KubeObject) => o.metadata ?? {};

/** The StatusError a call fails with (fails the test if it succeeds or throws something else). */
async function statusOf(call: Promise<unknown>): Promise<Status> {
  const err = await call.then(
    () => new Error('the call succeeded'),
    (e: unknown) => e,
  );
  if (!(err instanceof StatusError)) throw err;
  return err.status;
}

const failure = (code: number, reason: string, message: string, details?: object): Status =>
  ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    details,
    code,
  }) as Status;

describe('CRUD on events.k8s.io/v1 events', () => {
  it('create, get, list, update, every patch type, delete', async () => {
    const ns = uniqueNs();
    const created = await client.create(evPath(ns), newEvent(ns, 'e1'));
    expect(meta(created)).toMatchObject({ name: 'e1', namespace: ns, uid: expect.any(String) as unknown });
    expect(await client.get(evPath(ns, 'e1'))).toEqual(created);

    const list = await client.list<KubeList>(evPath(ns));
    expect(list.kind).toBe('EventList');
    expect(list.items.map((i) => meta(i).name)).toEqual(['e1']);

    const updated = await client.update(evPath(ns, 'e1'), {
      ...created,
      metadata: { ...meta(created), labels: { u: '0' } },
    });
    expect(meta(updated).labels).toEqual({ u: '0' });
    expect(meta(updated).resourceVersion).not.toBe(meta(created).resourceVersion);

    const merged = await client.patch(evPath(ns, 'e1'), 'merge', { metadata: { labels: { a: '1' } } });
    const jsonPatched = await client.patch(evPath(ns, 'e1'), 'json', [
      { op: 'remove', path: '/metadata/labels/u' },
    ]);
    const strategic = await client.patch(evPath(ns, 'e1'), 'strategic', { metadata: { labels: { b: '2' } } });
    expect([meta(merged).labels, meta(jsonPatched).labels, meta(strategic).labels]).toEqual([
      { u: '0', a: '1' },
      { a: '1' },
      { a: '1', b: '2' },
    ]);
    const applied = await client.patch(
      evPath(ns, 'e1'),
      'apply',
      { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e1', labels: { c: '3' } } },
      { fieldManager: 'tester', force: true },
    );
    expect(meta(applied).labels).toEqual({ a: '1', b: '2', c: '3' });

    const deleted = await client.delete(evPath(ns, 'e1'));
    expect(deleted).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'e1', group: 'events.k8s.io', kind: 'events', uid: meta(created).uid },
    });
    expect(await client.list<KubeList>(evPath(ns))).toMatchObject({ items: [] });
  });

  it('paged lists follow continue; dryRun writes nothing', async () => {
    const ns = uniqueNs();
    for (const n of ['a', 'b', 'c']) await client.create(evPath(ns), newEvent(ns, n));
    const first = await client.list<KubeList>(evPath(ns), { limit: 2 });
    expect(first.items).toHaveLength(2);
    const second = await client.list<KubeList>(evPath(ns), {
      limit: 2,
      continue: first.metadata?.continue ?? '',
    });
    expect(second.items.map((i) => meta(i).name)).toEqual(['c']);
    expect(second.metadata?.continue).toBeUndefined();
    await client.create(evPath(ns), newEvent(ns, 'dry'), { dryRun: true });
    expect((await statusOf(client.get(evPath(ns, 'dry')))).reason).toBe('NotFound');
  });

  it('discardBody: a write resolves undefined yet is done; a failed one still rejects with its Status', async () => {
    const ns = uniqueNs();
    expect(await client.create<void>(evPath(ns), newEvent(ns, 'd1'), { discardBody: true })).toBeUndefined();
    expect(
      await client.patch<void>(
        evPath(ns, 'd1'),
        'merge',
        { metadata: { labels: { a: '1' } } },
        { discardBody: true },
      ),
    ).toBeUndefined();
    expect(meta(await client.get(evPath(ns, 'd1'))).labels).toEqual({ a: '1' });
    const gone = await statusOf(client.delete<void>(evPath(ns, 'nope'), { discardBody: true }));
    expect(gone).toMatchObject({ code: 404, reason: 'NotFound' });
    expect(await client.delete<void>(evPath(ns, 'd1'), { discardBody: true })).toBeUndefined();
    expect((await statusOf(client.get(evPath(ns, 'd1')))).reason).toBe('NotFound');
  });

  it.each([
    ['the default User-Agent', undefined, 'keel-scheduler'],
    ['a configured User-Agent', 'my-controller/1.2.3', 'my-controller'],
  ])('%s names the field manager', async (_what, userAgent, manager) => {
    const ns = uniqueNs();
    const c = new RestClient(adminConnection(server), userAgent ? { userAgent } : {});
    try {
      const created = await c.create(evPath(ns), newEvent(ns, 'ua'));
      expect(meta(created)['managedFields']).toEqual([
        expect.objectContaining({ manager, operation: 'Update' }),
      ]);
    } finally {
      await c.close();
    }
  });
});

describe('errors', () => {
  const ns = uniqueNs();
  const evDetails = (name: string) => ({ name, group: 'events.k8s.io', kind: 'events' });

  it.each<[string, (ns: string) => Promise<unknown>, Status | ((s: Status) => void)]>([
    [
      'NotFound',
      (n) => client.get(evPath(n, 'missing')),
      failure(404, 'NotFound', 'events.events.k8s.io "missing" not found', evDetails('missing')),
    ],
    [
      'AlreadyExists',
      (n) => client.create(evPath(n), newEvent(n, 'dup')),
      failure(409, 'AlreadyExists', 'events.events.k8s.io "dup" already exists', evDetails('dup')),
    ],
    [
      'Conflict',
      async (n) => {
        const cur = await client.get(evPath(n, 'dup'));
        const stale = { ...cur, metadata: { ...meta(cur), resourceVersion: '1' } };
        return client.update(evPath(n, 'dup'), stale);
      },
      failure(
        409,
        'Conflict',
        'Operation cannot be fulfilled on events.events.k8s.io "dup": the object has been modified; please apply your changes to the latest version and try again',
        evDetails('dup'),
      ),
    ],
    [
      'Invalid',
      (n) => client.create(evPath(n), newEvent(n, 'bad', { reportingController: undefined })),
      (s) => {
        expect(s).toMatchObject({ code: 422, reason: 'Invalid', details: { name: 'bad', kind: 'Event' } });
        expect(s.details?.causes).toContainEqual(expect.objectContaining({ field: 'reportingController' }));
      },
    ],
    [
      'BadRequest (a selector the server rejects)',
      (n) => client.list(evPath(n), { fieldSelector: 'nope=1' }),
      failure(400, 'BadRequest', 'field label not supported: nope'),
    ],
  ])('%s: the server’s Status as a StatusError', async (_what, call, want) => {
    await client.create(evPath(ns), newEvent(ns, 'dup')).catch(() => undefined);
    const status = await statusOf(call(ns));
    if (typeof want === 'function') want(status);
    else expect(status).toEqual(want);
  });

  it('a text error body becomes a StatusError carrying the text', async () => {
    const status = await statusOf(client.get('/livez/nope'));
    expect(status).toEqual(failure(404, 'NotFound', '404 page not found'));
  });

  it('a refused connection is a NetworkError naming the request', async () => {
    const dead = new RestClient({ ...adminConnection(server), server: new URL('https://127.0.0.1:1') });
    const err = await dead.get('/version').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as Error).message).toMatch(/^GET https:\/\/127\.0\.0\.1:1\/version: .*ECONNREFUSED/);
    await dead.close();
  });

  it('the per-request timeout cuts a request that does not finish (a watch read as a GET)', async () => {
    const err = await client.get(`${evPath(ns)}?watch=true`, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({
      timedOut: true,
      message: expect.stringMatching(/: timed out after 300ms$/) as unknown,
    });
  });

  it('the caller’s abort rejects with the caller’s reason', async () => {
    const reason = new Error('shutting down');
    await expect(client.get(evPath(ns), { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});

describe('client-side throttling', () => {
  it('qps 5 burst 2: five requests take at least the 600 ms the bucket allows', async () => {
    const throttled = new RestClient(adminConnection(server), { qps: 5, burst: 2 });
    const start = performance.now();
    await Promise.all(Array.from({ length: 5 }, () => throttled.get('/version')));
    const elapsed = performance.now() - start;
    await throttled.close();
    // Two at once, then one per 200 ms: 600 ms at least; the margin is for timer granularity.
    expect(elapsed).toBeGreaterThanOrEqual(580);
  });
});
