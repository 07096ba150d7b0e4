/**
 * --runtime-config end to end: a disabled group/version or resource is gone from discovery
 * (legacy and aggregated), OpenAPI and `kubectl api-resources`, and its paths answer the real
 * 404 Status; what stays on is still served.
 */
import { apiServerEntry, runNode, TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVED_GROUP_VERSIONS } from '../src/options/api-enablement-options.js';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectlOk } from './support/clients/kubectl.js';
import { create, podBody, podPath, unique, type Json } from './support/core.js';

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const NOT_FOUND = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server could not find the requested resource',
  reason: 'NotFound',
  details: {},
  code: 404,
};

interface GroupList {
  groups: { name: string; versions: { groupVersion: string }[] }[];
}
interface AggregatedList {
  items: {
    metadata: { name?: string };
    versions: { version: string; resources: { resource: string }[] }[];
  }[];
}

async function start(runtimeConfig: string): Promise<TestApiServer> {
  const server = await TestApiServer.start({ args: [`--runtime-config=${runtimeConfig}`] });
  await server.ready();
  return server;
}

async function getJson<T>(server: TestApiServer, path: string, accept?: string): Promise<T> {
  const r = await server.request('GET', path, accept ? { headers: { accept } } : {});
  expect(r.status, `GET ${path}: ${r.text}`).toBe(200);
  return r.json as T;
}

/** Every group/version /api and /apis list, `v1` for the core group. */
async function discoveredGroupVersions(server: TestApiServer): Promise<string[]> {
  const core = await getJson<{ versions: string[] }>(server, '/api');
  const named = await getJson<GroupList>(server, '/apis');
  return [...core.versions, ...named.groups.flatMap((g) => g.versions.map((v) => v.groupVersion))];
}

async function groupNames(server: TestApiServer): Promise<string[]> {
  return (await getJson<GroupList>(server, '/apis')).groups.map((g) => g.name);
}

/** The aggregated /apis and /api documents, as `<group>/<version>/<resource>` (core: `v1/<resource>`). */
async function aggregatedResources(server: TestApiServer): Promise<string[]> {
  const out: string[] = [];
  for (const path of ['/api', '/apis']) {
    for (const g of (await getJson<AggregatedList>(server, path, AGGREGATED)).items) {
      for (const v of g.versions) {
        const gv = g.metadata.name ? `${g.metadata.name}/${v.version}` : v.version;
        out.push(...v.resources.map((r) => `${gv}/${r.resource}`));
      }
    }
  }
  return out;
}

async function resourceNames(server: TestApiServer, path: string): Promise<string[]> {
  return (await getJson<{ resources: { name: string }[] }>(server, path)).resources.map((r) => r.name);
}

async function openapiV2Paths(server: TestApiServer): Promise<string[]> {
  return Object.keys((await getJson<{ paths: Json }>(server, '/openapi/v2')).paths);
}

async function openapiV3Keys(server: TestApiServer): Promise<string[]> {
  return Object.keys((await getJson<{ paths: Json }>(server, '/openapi/v3')).paths);
}

async function expectNotFound(server: TestApiServer, method: string, path: string, body?: Json) {
  const r = await server.request(method, path, body ? { body } : {});
  expect({ path, status: r.status, body: r.json }).toEqual({ path, status: 404, body: NOT_FOUND });
}

/** `kubectl api-resources -o name`: `configmaps`, `events.events.k8s.io`, ... */
async function apiResources(cfg: ClientConfig): Promise<string[]> {
  return (await kubectlOk(cfg, ['api-resources', '-o', 'name'])).split('\n').filter((l) => l !== '');
}

describe('--runtime-config=api/all=true', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await start('api/all=true');
  });
  afterAll(async () => {
    await server?.stop();
  });

  // SERVED_GROUP_VERSIONS decides what --runtime-config accepts; it must name what is installed.
  it('serves exactly SERVED_GROUP_VERSIONS', async () => {
    expect((await discoveredGroupVersions(server)).sort()).toEqual([...SERVED_GROUP_VERSIONS].sort());
  });
});

describe('--runtime-config=events.k8s.io/v1=false', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  const ns = unique('rc-events');
  beforeAll(async () => {
    server = await start('events.k8s.io/v1=false');
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('removes events.k8s.io from discovery and OpenAPI', async () => {
    expect(await groupNames(server)).not.toContain('events.k8s.io');
    expect(await groupNames(server)).toContain('coordination.k8s.io');
    const aggregated = await aggregatedResources(server);
    expect(aggregated.filter((r) => r.startsWith('events.k8s.io/'))).toEqual([]);
    // The core group's own Event is another group/version and stays.
    expect(aggregated).toContain('v1/events');
    expect((await openapiV2Paths(server)).filter((p) => p.startsWith('/apis/events.k8s.io/'))).toEqual([]);
    const v3 = await openapiV3Keys(server);
    expect(v3).not.toContain('apis/events.k8s.io/v1');
    expect(v3).toContain('apis/coordination.k8s.io/v1');
  });

  it('answers 404 on its discovery and resource paths', async () => {
    await expectNotFound(server, 'GET', '/apis/events.k8s.io');
    await expectNotFound(server, 'GET', '/apis/events.k8s.io/v1');
    await expectNotFound(server, 'GET', '/apis/events.k8s.io/v1/events');
    await expectNotFound(server, 'GET', `/apis/events.k8s.io/v1/namespaces/${ns}/events`);
    await expectNotFound(server, 'POST', `/apis/events.k8s.io/v1/namespaces/${ns}/events`, {
      metadata: { name: 'e' },
    });
    expect((await server.request('GET', '/api/v1/events')).status).toBe(200);
  });

  it('kubectl api-resources does not list it', async () => {
    const names = await apiResources(cfg);
    expect(names.filter((n) => n.endsWith('.events.k8s.io'))).toEqual([]);
    expect(names).toContain('events');
    expect(names).toContain('leases.coordination.k8s.io');
  });
});

describe('--runtime-config=api/v1/configmaps=false', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  const ns = unique('rc-cm');
  beforeAll(async () => {
    server = await start('api/v1/configmaps=false');
    cfg = clientConfig(server);
    await create(server, '/api/v1/namespaces', { metadata: { name: ns } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('removes configmaps from /api/v1 and OpenAPI while pods remain', async () => {
    const names = await resourceNames(server, '/api/v1');
    expect(names).not.toContain('configmaps');
    expect(names).toEqual(expect.arrayContaining(['pods', 'pods/status', 'secrets', 'namespaces']));
    const aggregated = await aggregatedResources(server);
    expect(aggregated).not.toContain('v1/configmaps');
    expect(aggregated).toContain('v1/pods');
    const paths = await openapiV2Paths(server);
    expect(paths.filter((p) => p.includes('/configmaps'))).toEqual([]);
    expect(paths).toContain('/api/v1/namespaces/{namespace}/pods');
  });

  it('answers 404 on its paths; pods are served', async () => {
    await expectNotFound(server, 'GET', '/api/v1/configmaps');
    await expectNotFound(server, 'GET', `/api/v1/namespaces/${ns}/configmaps`);
    await expectNotFound(server, 'GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`);
    await expectNotFound(server, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'c' } });
    await expectNotFound(server, 'DELETE', `/api/v1/namespaces/${ns}/configmaps`);
    await create(server, podPath(ns), podBody('web'));
    expect((await server.request('GET', podPath(ns, 'web'))).status).toBe(200);
  });

  it('kubectl api-resources does not list it', async () => {
    const names = await apiResources(cfg);
    expect(names).not.toContain('configmaps');
    expect(names).toEqual(expect.arrayContaining(['pods', 'secrets', 'namespaces']));
  });
});

describe('--runtime-config=rbac.authorization.k8s.io/v1=false', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  beforeAll(async () => {
    server = await start('rbac.authorization.k8s.io/v1=false');
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is accepted and removes the rbac group', async () => {
    expect(await groupNames(server)).toEqual([
      'apps',
      'events.k8s.io',
      'authentication.k8s.io',
      'authorization.k8s.io',
      'policy',
      'storage.k8s.io',
      'admissionregistration.k8s.io',
      'scheduling.k8s.io',
      'coordination.k8s.io',
      'flowcontrol.apiserver.k8s.io',
    ]);
    expect((await openapiV3Keys(server)).filter((k) => k.startsWith('apis/rbac.'))).toEqual([]);
    await expectNotFound(server, 'GET', '/apis/rbac.authorization.k8s.io');
    await expectNotFound(server, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles');
    await expectNotFound(server, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/admin');
    await expectNotFound(server, 'GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles');
  });

  it('kubectl api-resources does not list it', async () => {
    const names = await apiResources(cfg);
    expect(names.filter((n) => n.endsWith('.rbac.authorization.k8s.io'))).toEqual([]);
    expect(names).toContain('priorityclasses.scheduling.k8s.io');
  });
});

describe('a resource switch wins over its group/version', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await start(
      'coordination.k8s.io/v1=false,coordination.k8s.io/v1/leases=true,' +
        'scheduling.k8s.io/v1/priorityclasses=false,authentication.k8s.io/v1beta1/selfsubjectreviews=true',
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves what a resource switch turns on and hides what one turns off', async () => {
    expect(await resourceNames(server, '/apis/coordination.k8s.io/v1')).toEqual(['leases']);
    expect((await server.request('GET', '/apis/coordination.k8s.io/v1/leases')).status).toBe(200);
    expect(await resourceNames(server, '/apis/authentication.k8s.io/v1beta1')).toEqual([
      'selfsubjectreviews',
    ]);
    const groups = await groupNames(server);
    // Its only resource off, scheduling.k8s.io has nothing left to serve.
    expect(groups).not.toContain('scheduling.k8s.io');
    await expectNotFound(server, 'GET', '/apis/scheduling.k8s.io/v1/priorityclasses');
    // The other older SelfSubjectReview version stays off by default.
    await expectNotFound(server, 'GET', '/apis/authentication.k8s.io/v1alpha1');
  });
});

describe('refused --runtime-config', () => {
  it.each([
    ['batch/v1=true', /--runtime-config: unknown api groups batch/],
    [
      'rbac.authorization.k8s.io/v1beta1=true',
      /--runtime-config: unknown group version rbac\.authorization\.k8s\.io\/v1beta1/,
    ],
  ])('%s stops start-up', async (value, message) => {
    const r = await runNode(apiServerEntry, [`--runtime-config=${value}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
  });
});
