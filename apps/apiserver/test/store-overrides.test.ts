import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { apiServerEntry, runNode, TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { eventBody, EVENTS } from './support/fixtures.js';
import { eventually, openWatch } from './support/http.js';

const redisUrl = inject('redisUrl');
/** The same Redis server, another database: the override's own store. */
const overrideUrl = `${redisUrl.replace(/\/\d*$/, '')}/7`;
const prefix = `/overrides-${randomBytes(6).toString('hex')}`;
const CMS = '/api/v1/namespaces/default/configmaps';

/** Whether database `db` of the test Redis holds the object at `key`. */
function holds(db: string, key: string): boolean {
  const url = db === '7' ? overrideUrl : redisUrl;
  const out = execFileSync('redis-cli', ['-u', url, 'EXISTS', `{${prefix}}:obj:${key}`], {
    encoding: 'utf8',
  });
  return out.trim() === '1';
}

describe('--store-servers-overrides', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        `--store-servers=${redisUrl}`,
        `--store-prefix=${prefix}`,
        `--store-servers-overrides=/events#${overrideUrl},coordination.k8s.io/leases#${overrideUrl}`,
        '--store-db-metric-poll-interval=200ms',
      ],
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps the named resources on their own servers and the rest on --store-servers', async () => {
    expect((await server.request('POST', EVENTS, { body: eventBody('routed') })).status).toBe(201);
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stays' }, data: {} };
    expect((await server.request('POST', CMS, { body: cm })).status).toBe(201);
    expect([holds('7', '/events/default/routed'), holds('0', '/events/default/routed')]).toEqual([
      true,
      false,
    ]);
    expect([holds('0', '/configmaps/default/stays'), holds('7', '/configmaps/default/stays')]).toEqual([
      true,
      false,
    ]);
    // The identity lease the server keeps is a Lease, so it lives with the override too.
    const leases = (
      await server.request('GET', '/apis/coordination.k8s.io/v1/namespaces/platform-system/leases')
    ).json as { items: { metadata: { name: string } }[] };
    expect(leases.items.length).toBeGreaterThan(0);
    for (const l of leases.items) expect(holds('7', `/leases/platform-system/${l.metadata.name}`)).toBe(true);
  });

  it('lists and watches a routed resource with its own store resourceVersions', async () => {
    const list = await server.request('GET', EVENTS);
    const rv = (list.json as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const watch = await openWatch(server, `${EVENTS}?watch=true&resourceVersion=${rv}`);
    expect((await server.request('POST', EVENTS, { body: eventBody('after-list') })).status).toBe(201);
    await watch.waitForEvents(1);
    expect(watch.events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'after-list' } } });
    watch.close();
    // A watch that skips the initial state starts at the events store's newest version.
    const fresh = await openWatch(
      server,
      `${EVENTS}?watch=true&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    expect((await server.request('POST', EVENTS, { body: eventBody('fresh') })).status).toBe(201);
    await fresh.waitForEvents(1);
    expect(
      fresh.events
        .filter((e) => e.type === 'ADDED')
        .map((e) => (e.object['metadata'] as { name: string }).name),
    ).toEqual(['fresh']);
    fresh.close();
  });

  it('reports each store in apiserver_storage_db_total_size_in_bytes', async () => {
    const endpoint = (u: string) => u.replace(/^(redis:\/\/[^/]+).*$/, '$1');
    const text = await eventually(
      async () => (await server.request('GET', '/metrics')).text,
      (t) => t.includes(`endpoint="${endpoint(redisUrl)}/7"`),
    );
    expect(text).toMatch(
      new RegExp(`apiserver_storage_db_total_size_in_bytes\\{endpoint="${endpoint(redisUrl)}"\\} \\d+`),
    );
    expect(text).toMatch(
      new RegExp(`apiserver_storage_db_total_size_in_bytes\\{endpoint="${endpoint(redisUrl)}/7"\\} \\d+`),
    );
  });

  it('refuses an override for a resource Keel does not store', async () => {
    const r = await runNode(apiServerEntry, [`--store-servers-overrides=apps/deployments#${overrideUrl}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Error: --store-servers-overrides names apps/deployments, which Keel does not store; it stores /configmaps,',
    );
  });
});
