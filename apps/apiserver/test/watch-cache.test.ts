import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { apiServerEntry, runNode, TestApiServer } from '@keel/testing';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { STORES, startServer } from './support/events.js';
import { openWatch, type WatchStream } from './support/http.js';

const redisUrl = inject('redisUrl');
const PODS = '/api/v1/namespaces/default/pods';
const CMS = '/api/v1/namespaces/default/configmaps';
const storeArgs = () => [
  `--store-servers=${redisUrl}`,
  `--store-prefix=/wc-${randomBytes(6).toString('hex')}`,
];

/** How many scripts Redis has run: a list read from Redis runs page scripts, one from memory none. */
function scriptCalls(): number {
  const out = execFileSync('redis-cli', ['-u', redisUrl, 'INFO', 'commandstats'], { encoding: 'utf8' });
  const m = /cmdstat_evalsha:calls=(\d+)/.exec(out);
  return m ? Number(m[1]) : 0;
}

const pod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }] },
});
const names = (r: { json: unknown }) =>
  (r.json as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name);

describe.each([
  ['--watch-cache (the default)', [], true],
  ['--watch-cache=false', ['--watch-cache=false'], false],
  ['--watch-cache-sizes=pods#0', ['--watch-cache-sizes=pods#0'], false],
] as const)('%s', (_name, args, cached) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({ args: [...storeArgs(), ...args] });
    await server.ready();
    for (let i = 0; i < 12; i++)
      expect((await server.request('POST', PODS, { body: pod(`p-${i}`) })).status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it(`${cached ? 'serves' : 'does not serve'} lists of pods from memory`, async () => {
    await server.request('GET', PODS); // the first list of a resource fills its cache
    const before = scriptCalls();
    // Each list read from Redis runs at least one script; the server's own background work (the
    // TTL reaper, lease renewals) runs a few meanwhile, far fewer than 30.
    for (let i = 0; i < 30; i++) {
      const r = await server.request('GET', i % 2 === 0 ? `${PODS}?resourceVersion=0` : PODS);
      expect(names(r)).toHaveLength(12);
    }
    const read = scriptCalls() - before;
    if (cached) expect(read).toBeLessThan(15);
    else expect(read).toBeGreaterThanOrEqual(30);
  });

  it('sends a paged list to the store, whose continue token works', async () => {
    const first = await server.request('GET', `${PODS}?limit=5`);
    expect(names(first)).toHaveLength(5);
    const token = (first.json as { metadata: { continue: string } }).metadata.continue;
    const next = await server.request('GET', `${PODS}?limit=5&continue=${encodeURIComponent(token)}`);
    expect(names(next)).toHaveLength(5);
    expect(names(next)).not.toContain(names(first)[0]);
  });
});

describe('the watch cache on a Redis shared by two API servers', () => {
  let a: TestApiServer;
  let b: TestApiServer;
  beforeAll(async () => {
    const shared = storeArgs();
    [a, b] = await Promise.all([
      TestApiServer.start({ args: shared }),
      TestApiServer.start({ args: shared }),
    ]);
    await Promise.all([a.ready(), b.ready()]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a consistent list through one server shows what was just written through the other', async () => {
    await a.request('GET', CMS);
    for (let i = 0; i < 20; i++) {
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: {} };
      expect((await b.request('POST', CMS, { body: cm })).status).toBe(201);
      expect(names(await a.request('GET', CMS))).toContain(`cm-${i}`);
    }
    expect((await b.request('DELETE', `${CMS}/cm-0`)).status).toBe(200);
    expect(names(await a.request('GET', CMS))).not.toContain('cm-0');
  });
});

describe('--watch-cache-sizes', () => {
  it('refuses a resource Keel does not store', async () => {
    const r = await runNode(apiServerEntry, ['--watch-cache-sizes=deployments.apps#100']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Error: --watch-cache-sizes names deployments.apps, which Keel does not store',
    );
  });
});

/**
 * Watches come from the watch cache: a version inside a resource's event window replays from it,
 * one that left the window gets the cache's 410 although the store still holds that history
 * (which a server with size 0 shows, serving the same watch from the store).
 */
describe.each(STORES)('watches served from the watch cache (%s store)', (store) => {
  let sized: TestApiServer;
  let off: TestApiServer;
  const open: WatchStream[] = [];
  beforeAll(async () => {
    [sized, off] = await Promise.all([
      startServer(store, ['--watch-cache-sizes=configmaps#5']),
      startServer(store, ['--watch-cache-sizes=configmaps#0']),
    ]);
  });
  afterEach(() => {
    for (const w of open.splice(0)) w.close();
  });
  afterAll(async () => {
    await Promise.all([sized?.stop(), off?.stop()]);
  });

  const cm = (name: string, labels: Record<string, string> = {}) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels },
    data: {},
  });
  async function create(server: TestApiServer, names: string[], labels: Record<string, string> = {}) {
    for (const n of names)
      expect((await server.request('POST', CMS, { body: cm(n, labels) })).status).toBe(201);
  }
  async function listRV(server: TestApiServer): Promise<string> {
    const r = await server.request('GET', CMS);
    return (r.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  }
  async function watch(server: TestApiServer, query: string): Promise<WatchStream> {
    const w = await openWatch(server, `${CMS}?watch=true&timeoutSeconds=30&${query}`);
    open.push(w);
    return w;
  }
  const seen = (w: WatchStream) =>
    w.events.map((e) => `${e.type} ${String((e.object['metadata'] as { name?: string } | undefined)?.name)}`);
  const unique = () => randomBytes(3).toString('hex');

  it('replays a watch from inside the window, then streams live', async () => {
    const id = unique();
    const from = await listRV(sized); // the first list fills the cache
    await create(sized, [`r-${id}-1`, `r-${id}-2`, `r-${id}-3`]);
    const w = await watch(sized, `resourceVersion=${from}`);
    await w.waitForEvents(3);
    await create(sized, [`r-${id}-4`]);
    await w.waitForEvents(4);
    expect(seen(w)).toEqual([1, 2, 3, 4].map((i) => `ADDED r-${id}-${i}`));
  });

  it('answers 410 for a version that left a window of 5 events; with size 0 the store serves it', async () => {
    const id = unique();
    for (const server of [sized, off]) {
      const from = await listRV(server);
      await create(
        server,
        Array.from({ length: 8 }, (_, i) => `o-${id}-${i}`),
      );
      const w = await watch(server, `resourceVersion=${from}`);
      if (server === sized) {
        await w.ended; // the ERROR is the stream's last event; it ends cleanly
        expect(w.status).toBe(200);
        expect(w.events).toHaveLength(1);
        expect(w.events[0]).toMatchObject({
          type: 'ERROR',
          object: { kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 },
        });
        expect(String(w.events[0]?.object['message'])).toMatch(
          new RegExp(`^too old resource version: ${from} \\(\\d+\\)$`),
        );
      } else {
        await w.waitForEvents(8);
        expect(seen(w)).toEqual(Array.from({ length: 8 }, (_, i) => `ADDED o-${id}-${i}`));
      }
    }
  });

  it('starts a watch at resourceVersion 0 from the cached state, filtered by the label selector', async () => {
    const id = unique();
    await create(sized, [`s-${id}-a`], { watch: id });
    await create(sized, [`s-${id}-b`]);
    const w = await watch(sized, `resourceVersion=0&labelSelector=watch%3D${id}`);
    await w.waitForEvents(1);
    await create(sized, [`s-${id}-c`]);
    await create(sized, [`s-${id}-d`], { watch: id });
    await w.waitForEvents(2);
    expect(seen(w)).toEqual([`ADDED s-${id}-a`, `ADDED s-${id}-d`]);
  });

  it('sends the initial-events-end bookmark and ends at timeoutSeconds, as a watch from the store does', async () => {
    const id = unique();
    await create(sized, [`t-${id}`], { timed: id });
    const w = await openWatch(
      sized,
      `${CMS}?watch=true&timeoutSeconds=1&allowWatchBookmarks=true&sendInitialEvents=true` +
        `&resourceVersionMatch=NotOlderThan&labelSelector=timed%3D${id}`,
    );
    open.push(w);
    await w.ended; // a clean end of the chunked stream; a reset would reject
    expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(w.events[1]?.object['metadata']).toMatchObject({
      annotations: { 'k8s.io/initial-events-end': 'true' },
    });
  });

  it('answers a version the cache does not reach in time with 504 Too large resource version', async () => {
    const ahead = BigInt(await listRV(sized)) + 1000n;
    const w = await watch(sized, `resourceVersion=${ahead}`);
    await w.ended;
    expect(w.events).toHaveLength(1);
    expect(w.events[0]).toMatchObject({ type: 'ERROR', object: { code: 504, reason: 'Timeout' } });
    expect(String(w.events[0]?.object['message'])).toMatch(
      new RegExp(`^Timeout: Too large resource version: ${ahead}, current: \\d+$`),
    );
  });
});
