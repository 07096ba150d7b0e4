import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  CORE,
  corePath,
  createEvents,
  EVENTS,
  evPath,
  failure,
  invalidOptions,
  meta,
  newEvent,
  startServer,
  STORES,
  uniqueNs,
  WatchStream,
  type WatchEvent,
} from './support/events.js';

const series = { count: 2, lastObservedTime: '2024-05-01T10:05:00.000000Z' };
const nameOf = (ev: WatchEvent): string => String(meta(ev.object)['name']);
const rvOf = (ev: WatchEvent): bigint => BigInt(String(meta(ev.object)['resourceVersion']));

describe.each(STORES)('Event watch (%s store)', (store) => {
  let server: TestApiServer;
  const open: WatchStream[] = [];
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterEach(() => {
    for (const w of open.splice(0)) w.close();
  });
  afterAll(async () => {
    await server.stop();
  });

  async function watch(path: string): Promise<WatchStream> {
    const w = await WatchStream.open(server, path);
    open.push(w);
    return w;
  }

  async function listRv(path: string): Promise<string> {
    return String(meta(body(await server.request('GET', path)))['resourceVersion']);
  }

  it('streams ADDED for the current state, then ADDED, MODIFIED and DELETED as newline-delimited JSON', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'a'), newEvent(ns, 'b')]);
    const w = await watch(evPath(ns, undefined, 'watch=true&timeoutSeconds=60'));
    expect(w.status).toBe(200);
    expect(w.headers['content-type']).toBe('application/json');
    const initial = await w.take(2);
    expect(initial.map((e) => `${e.type} ${nameOf(e)}`)).toEqual(['ADDED a', 'ADDED b']);
    for (const e of initial)
      expect(e.object).toMatchObject({ kind: 'Event', apiVersion: 'events.k8s.io/v1' });

    const [c] = await createEvents(server, ns, [newEvent(ns, 'c')]);
    const added = await w.next();
    expect(added).toEqual({ type: 'ADDED', object: c });
    const patched = await server.request('PATCH', evPath(ns, 'c'), {
      body: { series },
      contentType: 'application/merge-patch+json',
    });
    expect(await w.next()).toEqual({ type: 'MODIFIED', object: body(patched) });
    expect((await server.request('DELETE', evPath(ns, 'c'))).status).toBe(200);
    const deleted = await w.next();
    expect(deleted.type).toBe('DELETED');
    expect(deleted.object).toMatchObject({ kind: 'Event', apiVersion: 'events.k8s.io/v1', series });
    // The last state, carrying the deletion's resourceVersion.
    expect(rvOf(deleted)).toBeGreaterThan(BigInt(String(meta(body(patched))['resourceVersion'])));
    expect(String(rvOf(deleted))).toBe(await listRv(evPath(ns)));
    expect(w.badLines).toEqual([]);
  });

  it('from a list resourceVersion only later changes arrive (no initial ADDED)', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'old')]);
    const rv = await listRv(evPath(ns));
    await createEvents(server, ns, [newEvent(ns, 'new')]);
    const w = await watch(evPath(ns, undefined, `watch=true&resourceVersion=${rv}&timeoutSeconds=60`));
    const first = await w.next();
    expect(`${first.type} ${nameOf(first)}`).toBe('ADDED new');
  });

  it.each(['', '&resourceVersion=0'])(
    'allowWatchBookmarks%s: the initial events end with a k8s.io/initial-events-end BOOKMARK',
    async (rvParam) => {
      const ns = uniqueNs();
      await createEvents(server, ns, [newEvent(ns, 'a')]);
      const rv = await listRv(evPath(ns));
      const w = await watch(
        evPath(ns, undefined, `watch=true&allowWatchBookmarks=true&timeoutSeconds=60${rvParam}`),
      );
      expect((await w.next()).type).toBe('ADDED');
      const bookmark = await w.next();
      expect(bookmark.type).toBe('BOOKMARK');
      expect(bookmark.object).toMatchObject({
        kind: 'Event',
        apiVersion: 'events.k8s.io/v1',
        metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } },
      });
      expect(BigInt(String(meta(bookmark.object)['resourceVersion']))).toBeGreaterThanOrEqual(BigInt(rv));
    },
  );

  it('sendInitialEvents=true streams the whole current state even from a resourceVersion, then the end bookmark', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'a')]);
    const rv = await listRv(evPath(ns));
    await createEvents(server, ns, [newEvent(ns, 'b')]);
    const w = await watch(
      evPath(
        ns,
        undefined,
        `watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=60`,
      ),
    );
    const [a, b, end] = await w.take(3);
    expect([a, b].map((e) => `${e!.type} ${nameOf(e!)}`)).toEqual(['ADDED a', 'ADDED b']);
    expect(end!.type).toBe('BOOKMARK');
    expect(end!.object).toMatchObject({ metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } });
    expect(BigInt(String(meta(end!.object)['resourceVersion']))).toBeGreaterThanOrEqual(rvOf(b!));
  });

  it('sendInitialEvents=false without a resourceVersion starts from now: no initial events, no end bookmark', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'old')]);
    const w = await watch(
      evPath(
        ns,
        undefined,
        'watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=60',
      ),
    );
    await createEvents(server, ns, [newEvent(ns, 'new')]);
    const first = await w.next();
    expect(`${first.type} ${nameOf(first)}`).toBe('ADDED new');
  });

  it('sendInitialEvents needs resourceVersionMatch=NotOlderThan (422) and a reached resourceVersion (504)', async () => {
    const ns = uniqueNs();
    const noMatch = await server.request('GET', evPath(ns, undefined, 'watch=true&sendInitialEvents=true'));
    expect(noMatch.json).toEqual(
      invalidOptions('ListOptions', [
        [
          'resourceVersionMatch',
          'FieldValueForbidden',
          'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        ],
      ]),
    );
    const ahead = await server.request(
      'GET',
      evPath(
        ns,
        undefined,
        'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=999999999',
      ),
    );
    expect(ahead.status).toBe(504);
    expect(body(ahead)['message']).toMatch(/^Timeout: Too large resource version: 999999999, current: \d+$/);
  });

  it('timeoutSeconds ends the stream cleanly', async () => {
    const ns = uniqueNs();
    const w = await watch(evPath(ns, undefined, 'watch=true&timeoutSeconds=1'));
    expect(w.status).toBe(200);
    expect(await w.end()).toEqual([]);
    expect(w.badLines).toEqual([]);
  });

  it('with selectors, an object that stops matching arrives as DELETED and one that starts as ADDED', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [
      newEvent(ns, 'in', { metadata: { name: 'in', labels: { watch: 'me' } } }),
      newEvent(ns, 'out', { metadata: { name: 'out', labels: { watch: 'not' } } }),
      newEvent(ns, 'warn', { metadata: { name: 'warn', labels: { watch: 'me' } }, type: 'Warning' }),
    ]);
    const w = await watch(
      evPath(
        ns,
        undefined,
        'watch=true&timeoutSeconds=60&labelSelector=watch%3Dme&fieldSelector=type%3DNormal',
      ),
    );
    expect(`${(await w.next()).type} ${nameOf(w.events[0]!)}`).toBe('ADDED in');
    const merge = (name: string, labels: Record<string, string>) =>
      server.request('PATCH', evPath(ns, name), {
        body: { metadata: { labels } },
        contentType: 'application/merge-patch+json',
      });
    const moved = await merge('in', { watch: 'not' });
    const gone = await w.next();
    expect(gone.type).toBe('DELETED');
    // As the watch cache does: the previous content, at the resourceVersion of the change.
    expect(gone.object).toMatchObject({ metadata: { name: 'in', labels: { watch: 'me' } } });
    expect(meta(gone.object)['resourceVersion']).toBe(meta(body(moved))['resourceVersion']);
    await merge('out', { watch: 'me' });
    const came = await w.next();
    expect(`${came.type} ${nameOf(came)}`).toBe('ADDED out');
    await merge('warn', { watch: 'me', touched: 'yes' });
    await merge('out', { watch: 'me', touched: 'yes' });
    const modified = await w.next();
    expect(`${modified.type} ${nameOf(modified)}`).toBe('MODIFIED out');
  });

  it('watches across namespaces, in the view of the path', async () => {
    const [a, b] = [uniqueNs('wa'), uniqueNs('wb')];
    const rv = await listRv(`${EVENTS}/events`);
    const w = await watch(`${CORE}/events?watch=true&timeoutSeconds=60&resourceVersion=${rv}`);
    await createEvents(server, a, [newEvent(a, 'one')]);
    await createEvents(server, b, [newEvent(b, 'two')]);
    const seen = [await w.until((e) => [a, b].includes(String(meta(e.object)['namespace'])))];
    seen.push(await w.until((e) => [a, b].includes(String(meta(e.object)['namespace']))));
    expect(seen.map((e) => `${e.type} ${String(meta(e.object)['namespace'])}/${nameOf(e)}`)).toEqual([
      `ADDED ${a}/one`,
      `ADDED ${b}/two`,
    ]);
    expect(seen[0]!.object).toMatchObject({
      kind: 'Event',
      apiVersion: 'v1',
      message: 'pod started',
      involvedObject: { name: 'pod-1' },
    });
  });

  it('follows one object through fieldSelector=metadata.name and the legacy /watch/ path', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'x'), newEvent(ns, 'y')]);
    const bySelector = await watch(
      corePath(ns, undefined, 'watch=true&timeoutSeconds=60&fieldSelector=metadata.name%3Dy'),
    );
    const byPath = await watch(`${EVENTS}/watch/namespaces/${ns}/events/y?timeoutSeconds=60`);
    for (const w of [bySelector, byPath]) {
      const first = await w.next();
      expect(`${first.type} ${nameOf(first)}`).toBe('ADDED y');
    }
    await server.request('DELETE', evPath(ns, 'x'));
    await server.request('DELETE', evPath(ns, 'y'));
    for (const w of [bySelector, byPath]) {
      const next = await w.next();
      expect(`${next.type} ${nameOf(next)}`).toBe('DELETED y');
    }
  });

  it('refuses bad watch options before streaming', async () => {
    const ns = uniqueNs();
    const match = await server.request(
      'GET',
      evPath(ns, undefined, 'watch=true&resourceVersion=5&resourceVersionMatch=NotOlderThan'),
    );
    expect(match.json).toEqual(
      invalidOptions('ListOptions', [
        [
          'resourceVersionMatch',
          'FieldValueForbidden',
          'Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        ],
      ]),
    );
    const label = await server.request(
      'GET',
      evPath(ns, undefined, 'watch=true&fieldSelector=involvedObject.name%3Dx'),
    );
    expect(label.json).toEqual(failure(400, 'BadRequest', 'field label not supported: involvedObject.name'));
  });
});
