import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { apiServerEntry, runNode, TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

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
