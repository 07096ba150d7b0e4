/** GET /metrics on the API server: kube's metric names and labels, behind authorization, under the Metrics flags. */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { request } from 'undici';
import { ADMIN_TOKEN, TestApiServer, USER_TOKEN } from '@keel/testing';
import { STORES, startServer, uniqueNs } from './support/events.js';

/** The value of the one sample of `metric` whose labels include all of `labels`; undefined when none. */
function sample(text: string, metric: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)\{(.*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== metric) continue;
    const have = new Map(
      [...(m[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have.get(k) === v)) return Number(m[3]);
  }
  return undefined;
}

async function start(args: string[]): Promise<TestApiServer> {
  const server = await TestApiServer.start({ args });
  await server.ready();
  return server;
}

async function scrape(server: TestApiServer): Promise<string> {
  const r = await server.request('GET', '/metrics');
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return r.text;
}

describe('GET /metrics', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await start(['--authorization-mode=RBAC', '--store-count-metric-poll-period=100ms']);
  });
  afterAll(() => server.stop());

  it('counts requests by verb, resource, scope and code, and times them', async () => {
    const ns = uniqueNs('metrics');
    expect(
      (await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
    ).toBe(201);
    const cm = `/api/v1/namespaces/${ns}/configmaps`;
    for (const name of ['a', 'b'])
      expect((await server.request('POST', cm, { body: { metadata: { name } } })).status).toBe(201);
    expect((await server.request('POST', cm, { body: { metadata: { name: 'a' } } })).status).toBe(409);
    expect(
      (await server.request('POST', `${cm}?dryRun=All`, { body: { metadata: { name: 'c' } } })).status,
    ).toBe(201);
    expect((await server.request('GET', cm)).status).toBe(200);
    expect((await server.request('GET', `${cm}/a`)).status).toBe(200);

    const text = await scrape(server);
    const base = {
      group: '',
      version: 'v1',
      resource: 'configmaps',
      subresource: '',
      component: 'apiserver',
    };
    expect(
      sample(text, 'apiserver_request_total', {
        ...base,
        verb: 'POST',
        scope: 'namespace',
        dry_run: '',
        code: '201',
      }),
    ).toBe(2);
    expect(sample(text, 'apiserver_request_total', { ...base, verb: 'POST', dry_run: '', code: '409' })).toBe(
      1,
    );
    expect(
      sample(text, 'apiserver_request_total', { ...base, verb: 'POST', dry_run: 'All', code: '201' }),
    ).toBe(1);
    expect(
      sample(text, 'apiserver_request_total', { ...base, verb: 'LIST', scope: 'namespace', code: '200' }),
    ).toBe(1);
    expect(
      sample(text, 'apiserver_request_total', { ...base, verb: 'GET', scope: 'resource', code: '200' }),
    ).toBe(1);
    expect(
      sample(text, 'apiserver_request_duration_seconds_count', { ...base, verb: 'POST', dry_run: '' }),
    ).toBe(3);
    expect(sample(text, 'apiserver_current_inflight_requests', { request_kind: 'mutating' })).toBe(0);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
  });

  it('counts refusals by later filters, and needs authorization like any non-resource path', async () => {
    const denied = await server.request('GET', '/metrics', { token: USER_TOKEN });
    expect(denied.status).toBe(403);
    expect((denied.json as { message: string }).message).toBe(
      'forbidden: User "alice" cannot get path "/metrics"',
    );
    expect((await server.request('GET', '/api/v1/nodes', { token: 'no-such-token' })).status).toBe(401);
    const text = await scrape(server);
    expect(
      sample(text, 'apiserver_request_total', { verb: 'GET', resource: '', scope: '', code: '403' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'apiserver_request_total', { verb: 'LIST', resource: 'nodes', code: '401' })).toBe(1);
  });

  it('tracks open watches in apiserver_longrunning_requests', async () => {
    const ac = new AbortController();
    const watching = fetchWatch(server, '/api/v1/namespaces/default/configmaps?watch=1', ac.signal);
    await expect
      .poll(async () =>
        sample(await scrape(server), 'apiserver_longrunning_requests', {
          verb: 'WATCH',
          resource: 'configmaps',
        }),
      )
      .toBe(1);
    ac.abort();
    await watching;
    await expect
      .poll(async () =>
        sample(await scrape(server), 'apiserver_longrunning_requests', {
          verb: 'WATCH',
          resource: 'configmaps',
        }),
      )
      .toBe(0);
  });

  it('counts stored objects per resource every --store-count-metric-poll-period', async () => {
    const ns = uniqueNs('count');
    expect(
      (await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
    ).toBe(201);
    const before = sample(await scrape(server), 'apiserver_storage_objects', { resource: 'secrets' }) ?? 0;
    for (const name of ['s1', 's2', 's3'])
      expect(
        (await server.request('POST', `/api/v1/namespaces/${ns}/secrets`, { body: { metadata: { name } } }))
          .status,
      ).toBe(201);
    await expect
      .poll(async () => sample(await scrape(server), 'apiserver_storage_objects', { resource: 'secrets' }))
      .toBe(before + 3);
    expect(
      sample(await scrape(server), 'apiserver_storage_objects', {
        resource: 'roles.rbac.authorization.k8s.io',
      }),
    ).toBeGreaterThan(0);
  });
});

/** Opens a watch through the test server's TLS agent and resolves when it is aborted. */
async function fetchWatch(server: TestApiServer, path: string, signal: AbortSignal): Promise<void> {
  const res = await request(server.url + path, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    dispatcher: server.dispatcher,
    signal,
  }).catch(() => undefined);
  await res?.body.text().catch(() => undefined);
}

describe.each(STORES)('the store size every --store-db-metric-poll-interval (%s)', (store) => {
  it('reports apiserver_storage_db_total_size_in_bytes for the store, growing as objects are added', async () => {
    const server = await startServer(store, ['--store-db-metric-poll-interval=100ms']);
    try {
      const url = new URL(inject('redisUrl'));
      // The servers without credentials (a redis: URL has no origin to take).
      const endpoint = store === 'memory' ? 'memory' : `${url.protocol}//${url.host}`;
      const size = async () =>
        sample(await scrape(server), 'apiserver_storage_db_total_size_in_bytes', { endpoint });
      await expect.poll(size).toBeGreaterThan(0);
      const before = (await size()) ?? 0;
      const ns = uniqueNs('size');
      expect(
        (await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
      ).toBe(201);
      const data = { big: 'x'.repeat(200_000) };
      for (const name of ['c1', 'c2'])
        expect(
          (
            await server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
              body: { metadata: { name }, data },
            })
          ).status,
        ).toBe(201);
      await expect.poll(size).toBeGreaterThan(before + 300_000);
    } finally {
      await server.stop();
    }
  });

  it('is not reported with an interval of 0', async () => {
    const server = await startServer(store, ['--store-db-metric-poll-interval=0']);
    try {
      expect((await server.request('GET', '/api/v1/configmaps')).status).toBe(200);
      expect(await scrape(server)).not.toContain('apiserver_storage_db_total_size_in_bytes{');
    } finally {
      await server.stop();
    }
  });
});

describe('the Metrics flags', () => {
  it('--disabled-metrics drops a metric; --allow-metric-labels keeps only listed label values; period 0 stops the count', async () => {
    const server = await start([
      '--disabled-metrics=apiserver_request_duration_seconds',
      "--allow-metric-labels=apiserver_request_total,resource='namespaces,configmaps'",
      '--store-count-metric-poll-period=0s',
    ]);
    try {
      expect((await server.request('GET', '/api/v1/secrets')).status).toBe(200);
      expect((await server.request('GET', '/api/v1/configmaps')).status).toBe(200);
      const text = await scrape(server);
      expect(text).not.toContain('apiserver_request_duration_seconds');
      expect(text).not.toContain('apiserver_storage_objects{');
      expect(sample(text, 'apiserver_request_total', { verb: 'LIST', resource: 'configmaps' })).toBe(1);
      expect(sample(text, 'apiserver_request_total', { verb: 'LIST', resource: 'secrets' })).toBeUndefined();
      expect(sample(text, 'apiserver_request_total', { verb: 'LIST', resource: 'unexpected' })).toBe(1);
    } finally {
      await server.stop();
    }
  });
});
