import { inject } from 'vitest';
import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe.each([
  ['memory', undefined],
  ['redis', inject('redisUrl')],
] as const)('namespaces (%s)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start(redisUrl ? { redisUrl } : {});
    await server.ready();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('lists the system namespaces the bootstrap step created', async () => {
    const r = await server.request('GET', '/api/v1/namespaces');
    expect(r.status).toBe(200);
    const list = r.json as {
      kind: string;
      items: { metadata: { name: string }; status: { phase: string } }[];
    };
    expect(list.kind).toBe('NamespaceList');
    expect(list.items.map((n) => n.metadata.name)).toEqual([
      'default',
      'kube-system',
      'platform-node-lease',
      'platform-public',
      'platform-system',
    ]);
    expect(list.items.every((n) => n.status.phase === 'Active')).toBe(true);
  });

  it('serves them as cluster-scoped objects, discoverable with their short name', async () => {
    const ns = await server.request('GET', '/api/v1/namespaces/platform-system');
    expect(ns.json).toMatchObject({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'platform-system' },
    });
    expect((ns.json as { metadata: Record<string, unknown> }).metadata['namespace']).toBeUndefined();
    const discovery = await server.request('GET', '/api/v1');
    const resources = (
      discovery.json as { resources: { name: string; namespaced: boolean; shortNames?: string[] }[] }
    ).resources;
    expect(resources.find((r) => r.name === 'namespaces')).toMatchObject({
      namespaced: false,
      shortNames: ['ns'],
    });
  });

  it('creates a namespace with its defaults and answers NotFound for a missing one', async () => {
    const created = await server.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ metadata: { name: 'team-a' }, status: { phase: 'Active' } });
    const missing = await server.request('GET', '/api/v1/namespaces/nope');
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ reason: 'NotFound', message: 'namespaces "nope" not found' });
    expect((await server.request('DELETE', '/api/v1/namespaces/team-a')).status).toBe(200);
  });

  it('refuses a name that is not a DNS-1123 label', async () => {
    const r = await server.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'Not_Valid' } },
    });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ reason: 'Invalid', code: 422 });
  });
});
