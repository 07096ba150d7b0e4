/**
 * LimitRanges and ResourceQuotas end to end against the built keel-apiserver: kubectl creates and
 * prints them, LimitRanger defaults and bounds pods, ResourceQuota refuses the pod over the limit
 * and the in-server quota controller releases usage after a delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectl, kubectlOk } from './support/clients/kubectl.js';
import { create, expectStatus, podBody, podPath, unique, type Json } from './support/core.js';
import { eventually } from './support/http.js';

const quotaPath = (ns: string, name = '') =>
  `/api/v1/namespaces/${ns}/resourcequotas${name ? `/${name}` : ''}`;

function namespaceBody(name: string): Json {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

/** The quota's status.used once the controller has recorded `want` for `resource`. */
async function usedOnce(
  server: TestApiServer,
  ns: string,
  name: string,
  resource: string,
  want: string,
): Promise<Json> {
  const r = await eventually(
    () => server.request('GET', quotaPath(ns, name)),
    (x) => ((x.json as { status?: { used?: Json } }).status?.used ?? {})[resource] === want,
  );
  return (r.json as { status?: { used?: Json } }).status?.used ?? {};
}

describe('limit ranges and resource quotas', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  const ok = (...args: string[]) => kubectlOk(cfg, args);
  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists both in discovery with their short names', async () => {
    const v1 = await expectStatus(server.request('GET', '/api/v1'), 200);
    const byName = new Map((v1['resources'] as Json[]).map((r) => [r['name'], r]));
    expect(byName.get('limitranges')).toMatchObject({
      kind: 'LimitRange',
      namespaced: true,
      shortNames: ['limits'],
    });
    expect(byName.get('resourcequotas')).toMatchObject({
      kind: 'ResourceQuota',
      namespaced: true,
      shortNames: ['quota'],
    });
    expect(byName.get('resourcequotas/status')).toMatchObject({
      kind: 'ResourceQuota',
      verbs: ['get', 'patch', 'update'],
    });
  });

  it('kubectl creates a quota and a limit range and prints them; pods get defaults, limits and quota', async () => {
    const ns = unique('quota');
    await ok('create', 'namespace', ns);
    const manifest = `apiVersion: v1
kind: ResourceQuota
metadata: {name: pods-and-cpu}
spec:
  hard: {pods: "2", limits.cpu: "4"}
---
apiVersion: v1
kind: LimitRange
metadata: {name: bounds}
spec:
  limits:
  - type: Container
    default: {cpu: 500m}
    defaultRequest: {cpu: 100m}
    max: {cpu: "1"}
`;
    const applied = await kubectl(cfg, ['apply', '-n', ns, '-f', '-'], { stdin: manifest });
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toBe('resourcequota/pods-and-cpu created\nlimitrange/bounds created\n');
    await usedOnce(server, ns, 'pods-and-cpu', 'pods', '0');

    const quotaTable = await ok('get', 'quota', '-n', ns);
    expect(quotaTable.split('\n')[0]?.split(/\s+/)).toEqual(['NAME', 'AGE', 'REQUEST', 'LIMIT']);
    expect(quotaTable).toMatch(/pods-and-cpu\s+\S+\s+pods: 0\/2\s+limits\.cpu: 0\/4/);
    const limitsTable = await ok('get', 'limits', '-n', ns);
    expect(limitsTable).toMatch(/^NAME\s+CREATED AT\nbounds\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n$/);

    // Defaults from the range: the quota on limits.cpu is satisfied by them.
    await create(server, podPath(ns), podBody('first'));
    const first = await expectStatus(server.request('GET', podPath(ns, 'first')), 200);
    expect((first['spec'] as { containers: Json[] }).containers[0]?.['resources']).toEqual({
      limits: { cpu: '500m' },
      requests: { cpu: '100m' },
    });
    expect((first['metadata'] as Json)['annotations']).toEqual({
      'kubernetes.io/limit-ranger':
        'LimitRanger plugin set: cpu request for container app; cpu limit for container app',
    });

    // Over the range's max: the real 403, as kubectl prints it.
    const big = await kubectl(cfg, ['create', '-n', ns, '-f', '-'], {
      stdin: JSON.stringify(
        podBody('big', { containers: [{ name: 'app', image: 'x', resources: { limits: { cpu: '2' } } }] }),
      ),
    });
    expect(big.code).not.toBe(0);
    expect(big.stderr).toContain(
      'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    );

    await create(server, podPath(ns), podBody('second'));
    const third = await server.request('POST', podPath(ns), { body: podBody('third') });
    expect(third.status).toBe(403);
    expect(third.json).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      message:
        'pods "third" is forbidden: exceeded quota: pods-and-cpu, requested: pods=1, used: pods=2, limited: pods=2',
      details: { name: 'third', kind: 'pods' },
    });

    // The controller releases what a deleted pod used.
    await expectStatus(server.request('DELETE', podPath(ns, 'first')), 200);
    const used = await usedOnce(server, ns, 'pods-and-cpu', 'pods', '1');
    expect(used).toEqual({ pods: '1', 'limits.cpu': '500m' });
    await create(server, podPath(ns), podBody('third'));
  });

  it('refuses a bad quota and limit range with the real 422', async () => {
    const badQuota = await server.request('POST', quotaPath('default'), {
      body: {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'bad' },
        spec: { hard: { pods: '1500m' } },
      },
    });
    expect(badQuota.status).toBe(422);
    expect((badQuota.json as Json)['message']).toBe(
      'ResourceQuota "bad" is invalid: spec.hard[pods]: Invalid value: "1500m": must be an integer',
    );
    const badRange = await server.request('POST', '/api/v1/namespaces/default/limitranges', {
      body: {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'bad' },
        spec: { limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }] },
      },
    });
    expect(badRange.status).toBe(422);
    expect((badRange.json as Json)['message']).toContain(
      'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
    );
  });

  it('counts configmaps by their object count name', async () => {
    const ns = unique('count');
    await create(server, '/api/v1/namespaces', namespaceBody(ns));
    await create(server, quotaPath(ns), {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'objects' },
      spec: { hard: { 'count/configmaps': '2' } },
    });
    // Every namespace holds kube-root-ca.crt, which counts as upstream.
    await usedOnce(server, ns, 'objects', 'count/configmaps', '1');
    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    await create(server, `/api/v1/namespaces/${ns}/configmaps`, cm('one'));
    const two = await server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: cm('two') });
    expect(two.status).toBe(403);
    expect((two.json as Json)['message']).toBe(
      'configmaps "two" is forbidden: exceeded quota: objects, requested: count/configmaps=1, used: count/configmaps=2, limited: count/configmaps=2',
    );
  });
});
