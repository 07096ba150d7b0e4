import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json } from './support/core.js';

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS_VERBS = ['get', 'patch', 'update'];

describe('discovery of the scheduler resources', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const resources = async (path: string) =>
    ((await server.request('GET', path)).json as { resources: Json[] }).resources;

  it('lists the core resources and subresources as the real /api/v1 does', async () => {
    const byName = new Map((await resources('/api/v1')).map((r) => [r['name'], r]));
    expect(byName.get('pods')).toEqual({
      name: 'pods',
      singularName: 'pod',
      namespaced: true,
      kind: 'Pod',
      verbs: ALL_VERBS,
      shortNames: ['po'],
      categories: ['all'],
      storageVersionHash: 'xPOwRZ+Yhw8=',
    });
    expect(byName.get('pods/binding')).toEqual({
      name: 'pods/binding',
      singularName: '',
      namespaced: true,
      kind: 'Binding',
      verbs: ['create'],
    });
    expect(byName.get('pods/status')).toEqual({
      name: 'pods/status',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: STATUS_VERBS,
    });
    expect(byName.get('bindings')).toEqual({
      name: 'bindings',
      singularName: 'binding',
      namespaced: true,
      kind: 'Binding',
      verbs: ['create'],
    });
    expect(byName.get('nodes')).toEqual({
      name: 'nodes',
      singularName: 'node',
      namespaced: false,
      kind: 'Node',
      verbs: ALL_VERBS,
      shortNames: ['no'],
      storageVersionHash: 'XwShjMxG9Fs=',
    });
    expect(byName.get('nodes/status')).toEqual({
      name: 'nodes/status',
      singularName: '',
      namespaced: false,
      kind: 'Node',
      verbs: STATUS_VERBS,
    });
    expect(byName.get('configmaps')).toMatchObject({
      kind: 'ConfigMap',
      namespaced: true,
      shortNames: ['cm'],
      storageVersionHash: 'qFsyl6wFWjQ=',
    });
    expect(byName.get('endpoints')).toMatchObject({
      kind: 'Endpoints',
      singularName: 'endpoints',
      shortNames: ['ep'],
      storageVersionHash: 'fWeeMqaN/OA=',
    });
    expect(byName.get('namespaces/status')).toMatchObject({
      kind: 'Namespace',
      namespaced: false,
      verbs: STATUS_VERBS,
    });
    // A resource is followed by its subresources, in name order.
    const order = [...byName.keys()];
    expect(order.slice(order.indexOf('pods'), order.indexOf('pods') + 3)).toEqual([
      'pods',
      'pods/binding',
      'pods/status',
    ]);
  });

  it('lists the new groups in /apis and their resources', async () => {
    const groups = ((await server.request('GET', '/apis')).json as { groups: { name: string }[] }).groups.map(
      (g) => g.name,
    );
    expect(groups).toEqual([
      'apps',
      'events.k8s.io',
      'authentication.k8s.io',
      'authorization.k8s.io',
      'policy',
      'rbac.authorization.k8s.io',
      'storage.k8s.io',
      'admissionregistration.k8s.io',
      'scheduling.k8s.io',
      'coordination.k8s.io',
      'flowcontrol.apiserver.k8s.io',
    ]);
    // The real server's list: no short names, no categories.
    expect(await resources('/apis/rbac.authorization.k8s.io/v1')).toEqual(
      (
        [
          ['clusterrolebindings', 'ClusterRoleBinding', false, '48tpQ8gZHFc='],
          ['clusterroles', 'ClusterRole', false, 'bYE5ZWDrJ44='],
          ['rolebindings', 'RoleBinding', true, 'eGsCzGH6b1g='],
          ['roles', 'Role', true, '7FuwZcIIItM='],
        ] as const
      ).map(([name, kind, namespaced, storageVersionHash]) => ({
        name,
        singularName: kind.toLowerCase(),
        namespaced,
        kind,
        verbs: ALL_VERBS,
        storageVersionHash,
      })),
    );
    expect(await resources('/apis/coordination.k8s.io/v1')).toEqual([
      {
        name: 'leases',
        singularName: 'lease',
        namespaced: true,
        kind: 'Lease',
        verbs: ALL_VERBS,
        storageVersionHash: 'gqkMMb/YqFM=',
      },
    ]);
    const review = (name: string, kind: string, namespaced = false) => ({
      name,
      singularName: name.slice(0, -1),
      namespaced,
      kind,
      verbs: ['create'],
    });
    expect(await resources('/apis/authentication.k8s.io/v1')).toEqual([
      review('selfsubjectreviews', 'SelfSubjectReview'),
      review('tokenreviews', 'TokenReview'),
    ]);
    expect(await resources('/apis/authorization.k8s.io/v1')).toEqual([
      review('localsubjectaccessreviews', 'LocalSubjectAccessReview', true),
      review('selfsubjectaccessreviews', 'SelfSubjectAccessReview'),
      review('selfsubjectrulesreviews', 'SelfSubjectRulesReview'),
      review('subjectaccessreviews', 'SubjectAccessReview'),
    ]);
    // SelfSubjectReview's older versions are off by default, as in kube.
    expect((await server.request('GET', '/apis/authentication.k8s.io/v1beta1')).status).toBe(404);
  });

  it('lists the subresources in aggregated discovery', async () => {
    const r = await server.request('GET', '/api', {
      headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
    });
    const core = (r.json as { items: { versions: { resources: Json[] }[] }[] }).items[0];
    const pods = core?.versions[0]?.resources.find((x) => x['resource'] === 'pods');
    expect(pods).toMatchObject({
      scope: 'Namespaced',
      subresources: [
        {
          subresource: 'binding',
          responseKind: { group: '', version: 'v1', kind: 'Binding' },
          verbs: ['create'],
        },
        {
          subresource: 'status',
          responseKind: { group: '', version: 'v1', kind: 'Pod' },
          verbs: STATUS_VERBS,
        },
      ],
    });
  });

  it('publishes OpenAPI for the new group versions', async () => {
    const index = (await server.request('GET', '/openapi/v3')).json as { paths: Record<string, unknown> };
    expect(Object.keys(index.paths)).toEqual(
      expect.arrayContaining([
        'api/v1',
        'apis/coordination.k8s.io/v1',
        'apis/authentication.k8s.io/v1',
        'apis/authorization.k8s.io/v1',
      ]),
    );
    const doc = (await server.request('GET', '/openapi/v3/apis/authentication.k8s.io/v1')).json as {
      paths: Record<string, Record<string, { operationId?: string }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.paths['/apis/authentication.k8s.io/v1/tokenreviews']?.['post']?.operationId).toBe(
      'createAuthenticationV1TokenReview',
    );
    expect(Object.keys(doc.components.schemas)).not.toContain('io.k8s.api.authentication.v1.TokenReviewList');
  });
});
