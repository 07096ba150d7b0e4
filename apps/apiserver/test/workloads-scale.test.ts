/**
 * The `scale` subresource (autoscaling/v1 Scale) of ReplicaSets, StatefulSets and
 * ReplicationControllers against the built keel-apiserver with RBAC: get, update (with and
 * without a resourceVersion precondition, 409 on a stale one), the three patch types, the 422 of
 * a negative count, discovery, RBAC by subresource, `kubectl scale` and the official JavaScript
 * client's typed scale calls.
 */
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, TestApiServer, USER_TOKEN } from '@keel/testing';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectl, kubectlOk } from './support/clients/kubectl.js';
import { expectStatus, MERGE, newNamespace, SMP, type Json } from './support/core.js';

const JSON_PATCH = 'application/json-patch+json';
const RBAC_GROUP = 'rbac.authorization.k8s.io';

const template = (labels: Json): Json => ({
  metadata: { labels },
  spec: { containers: [{ name: 'app', image: 'nginx' }] },
});

const workloads = {
  replicasets: {
    base: (ns: string) => `/apis/apps/v1/namespaces/${ns}/replicasets`,
    body: (name: string): Json => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name },
      spec: {
        replicas: 2,
        selector: {
          matchLabels: { app: name },
          matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }],
        },
        template: template({ app: name, tier: 'a' }),
      },
    }),
    selector: (name: string) => `app=${name},tier in (a,b)`,
  },
  statefulsets: {
    base: (ns: string) => `/apis/apps/v1/namespaces/${ns}/statefulsets`,
    body: (name: string): Json => ({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name },
      spec: {
        replicas: 2,
        serviceName: name,
        selector: { matchLabels: { app: name } },
        template: template({ app: name }),
      },
    }),
    selector: (name: string) => `app=${name}`,
  },
  replicationcontrollers: {
    base: (ns: string) => `/api/v1/namespaces/${ns}/replicationcontrollers`,
    body: (name: string): Json => ({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name },
      spec: { replicas: 2, selector: { tier: 'a', app: name }, template: template({ app: name, tier: 'a' }) },
    }),
    // labels.SelectorFromSet: keys sorted.
    selector: (name: string) => `app=${name},tier=a`,
  },
} as const;

describe('the scale subresource', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;

  beforeAll(async () => {
    server = await TestApiServer.start({ args: ['--authorization-mode=RBAC'] });
    await server.ready();
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe.each(Object.entries(workloads))('%s/scale', (resource, w) => {
    it('gets, updates and patches the Scale; a stale resourceVersion is a 409, a negative count a 422', async () => {
      const ns = await newNamespace(server, 'scale');
      const created = await expectStatus(server.request('POST', w.base(ns), { body: w.body('web') }), 201);
      const scalePath = `${w.base(ns)}/web/scale`;
      const scale = await expectStatus(server.request('GET', scalePath), 200);
      const meta = created['metadata'] as Json;
      expect(scale).toEqual({
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: {
          name: 'web',
          namespace: ns,
          uid: meta['uid'],
          resourceVersion: meta['resourceVersion'],
          creationTimestamp: meta['creationTimestamp'],
        },
        spec: { replicas: 2 },
        status: { replicas: 0, selector: w.selector('web') },
      });

      // PUT with the current resourceVersion: the workload's spec.replicas changes.
      const updated = await expectStatus(
        server.request('PUT', scalePath, { body: { ...scale, spec: { replicas: 5 } } }),
        200,
      );
      expect(updated['spec']).toEqual({ replicas: 5 });
      const rv = (updated['metadata'] as Json)['resourceVersion'];
      expect(rv).not.toBe(meta['resourceVersion']);
      const workload = await expectStatus(server.request('GET', `${w.base(ns)}/web`), 200);
      expect(workload['spec']).toMatchObject({ replicas: 5 });
      expect((workload['metadata'] as Json)['resourceVersion']).toBe(rv);

      // The old resourceVersion is now stale: the workload's own 409.
      const stale = await server.request('PUT', scalePath, { body: { ...scale, spec: { replicas: 1 } } });
      expect(stale.status).toBe(409);
      expect(stale.json).toMatchObject({
        reason: 'Conflict',
        message: `Operation cannot be fulfilled on ${resource}${resource === 'replicationcontrollers' ? '' : '.apps'} "web": the object has been modified; please apply your changes to the latest version and try again`,
      });

      // Without a resourceVersion the update is unconditional.
      const noRv = { ...scale, metadata: { name: 'web' }, spec: { replicas: 4 } };
      expect((await expectStatus(server.request('PUT', scalePath, { body: noRv }), 200))['spec']).toEqual({
        replicas: 4,
      });

      for (const [type, patch, want] of [
        [MERGE, { spec: { replicas: 3 } }, 3],
        [SMP, { spec: { replicas: 6 } }, 6],
        [JSON_PATCH, [{ op: 'replace', path: '/spec/replicas', value: 7 }], 7],
      ] as const) {
        const patched = await expectStatus(
          server.request('PATCH', scalePath, { body: patch, contentType: type }),
          200,
        );
        expect([type, patched['spec']]).toEqual([type, { replicas: want }]);
      }
      // A resourceVersion in a patch is a precondition too.
      const stalePatch = await server.request('PATCH', scalePath, {
        body: { metadata: { resourceVersion: meta['resourceVersion'] }, spec: { replicas: 1 } },
        contentType: MERGE,
      });
      expect(stalePatch.status).toBe(409);

      // Scaling to zero: Go's omitempty drops spec.replicas from the Scale.
      const zero = await expectStatus(
        server.request('PATCH', scalePath, { body: { spec: { replicas: 0 } }, contentType: MERGE }),
        200,
      );
      expect(zero['spec']).toEqual({});

      const negative = await server.request('PATCH', scalePath, {
        body: { spec: { replicas: -1 } },
        contentType: MERGE,
      });
      expect(negative.status).toBe(422);
      expect(negative.json).toMatchObject({
        reason: 'Invalid',
        message:
          'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
        details: { name: 'web', group: 'autoscaling', kind: 'Scale' },
      });

      const wrongName = await server.request('PUT', scalePath, {
        body: { ...noRv, metadata: { name: 'other' } },
      });
      expect(wrongName.status).toBe(400);
      expect((wrongName.json as Json)['message']).toBe(
        'the name of the object (other) does not match the name on the URL (web)',
      );
      const apply = await server.request('PATCH', scalePath, {
        body: 'spec: {replicas: 1}',
        contentType: 'application/apply-patch+yaml',
      });
      expect(apply.status).toBe(415);
      const missing = await server.request('GET', `${w.base(ns)}/absent/scale`);
      expect(missing.status).toBe(404);
      const collection = await server.request('DELETE', scalePath);
      expect(collection.status).toBe(405);
    });
  });

  it('lists <resource>/scale in discovery as autoscaling/v1 Scale', async () => {
    const sub = (list: Json, name: string) => (list['resources'] as Json[]).find((r) => r['name'] === name);
    const apps = await expectStatus(server.request('GET', '/apis/apps/v1'), 200);
    const core = await expectStatus(server.request('GET', '/api/v1'), 200);
    const want = {
      kind: 'Scale',
      group: 'autoscaling',
      version: 'v1',
      namespaced: true,
      verbs: ['get', 'patch', 'update'],
    };
    expect(sub(apps, 'replicasets/scale')).toMatchObject(want);
    expect(sub(apps, 'statefulsets/scale')).toMatchObject(want);
    expect(sub(core, 'replicationcontrollers/scale')).toMatchObject(want);
  });

  it('authorizes the subresource as `scale`: a role on replicasets/scale may scale, not edit', async () => {
    const ns = await newNamespace(server, 'scale-rbac');
    const base = workloads.replicasets.base(ns);
    await expectStatus(server.request('POST', base, { body: workloads.replicasets.body('web') }), 201);
    const rbac = `/apis/${RBAC_GROUP}/v1/namespaces/${ns}`;
    await expectStatus(
      server.request('POST', `${rbac}/roles`, {
        body: {
          apiVersion: `${RBAC_GROUP}/v1`,
          kind: 'Role',
          metadata: { name: 'scaler' },
          rules: [
            { apiGroups: ['apps'], resources: ['replicasets/scale'], verbs: ['get', 'update', 'patch'] },
          ],
        },
        token: ADMIN_TOKEN,
      }),
      201,
    );
    const asAlice = { token: USER_TOKEN };
    // Before the binding: forbidden, naming the subresource.
    const before = await server.request('GET', `${base}/web/scale`, asAlice);
    expect(before.status).toBe(403);
    expect((before.json as Json)['message']).toBe(
      `replicasets.apps "web" is forbidden: User "alice" cannot get resource "replicasets/scale" in API group "apps" in the namespace "${ns}"`,
    );
    await expectStatus(
      server.request('POST', `${rbac}/rolebindings`, {
        body: {
          apiVersion: `${RBAC_GROUP}/v1`,
          kind: 'RoleBinding',
          metadata: { name: 'alice-scaler' },
          roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: 'scaler' },
          subjects: [{ kind: 'User', apiGroup: RBAC_GROUP, name: 'alice' }],
        },
        token: ADMIN_TOKEN,
      }),
      201,
    );
    const patch = { body: { spec: { replicas: 9 } }, contentType: MERGE, ...asAlice };
    await expect
      .poll(async () => (await server.request('PATCH', `${base}/web/scale`, patch)).status, {
        timeout: 20_000,
      })
      .toBe(200);
    expect((await server.request('PATCH', `${base}/web`, patch)).status).toBe(403);
    expect((await expectStatus(server.request('GET', `${base}/web`), 200))['spec']).toMatchObject({
      replicas: 9,
    });
  });

  it('kubectl scale rs/web --replicas=3, with and without --resource-version', async () => {
    const ns = await newNamespace(server, 'scale-kubectl');
    const base = workloads.replicasets.base(ns);
    const created = await expectStatus(
      server.request('POST', base, { body: workloads.replicasets.body('web') }),
      201,
    );
    const out = await kubectlOk(cfg, ['scale', '-n', ns, 'rs/web', '--replicas=3']);
    expect(out).toContain('replicaset.apps/web scaled');
    expect((await expectStatus(server.request('GET', `${base}/web`), 200))['spec']).toMatchObject({
      replicas: 3,
    });
    // --current-replicas is a precondition kubectl checks against the Scale it reads.
    expect(
      await kubectlOk(cfg, ['scale', '-n', ns, 'rs/web', '--current-replicas=3', '--replicas=4']),
    ).toContain('scaled');
    // A stale --resource-version: kubectl compares it with the Scale's resourceVersion it read.
    const stale = String((created['metadata'] as Json)['resourceVersion']);
    const r = await kubectl(cfg, [
      'scale',
      '-n',
      ns,
      'rs/web',
      `--resource-version=${stale}`,
      '--replicas=1',
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(new RegExp(`Expected resource version to be ${stale}, was \\d+`));
    await expectStatus(
      server.request('POST', workloads.replicationcontrollers.base(ns), {
        body: workloads.replicationcontrollers.body('rc'),
      }),
      201,
    );
    expect(await kubectlOk(cfg, ['scale', '-n', ns, 'rc/rc', '--replicas=2'])).toContain(
      'replicationcontroller/rc scaled',
    );
  });

  it('the JavaScript client reads and replaces a StatefulSet Scale', async () => {
    const ns = await newNamespace(server, 'scale-js');
    await expectStatus(
      server.request('POST', workloads.statefulsets.base(ns), { body: workloads.statefulsets.body('db') }),
      201,
    );
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'keel', server: server.url, caFile: cfg.caFile, skipTLSVerify: false }],
      users: [{ name: 'keel-user', token: ADMIN_TOKEN }],
      contexts: [{ name: 'keel', cluster: 'keel', user: 'keel-user' }],
      currentContext: 'keel',
    });
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const scale = await apps.readNamespacedStatefulSetScale({ name: 'db', namespace: ns });
    expect(scale).toMatchObject({
      kind: 'Scale',
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=db' },
    });
    const replaced = await apps.replaceNamespacedStatefulSetScale({
      name: 'db',
      namespace: ns,
      body: { ...scale, spec: { replicas: 4 } },
    });
    expect(replaced.spec?.replicas).toBe(4);
    const sts = await apps.readNamespacedStatefulSet({ name: 'db', namespace: ns });
    expect(sts.spec?.replicas).toBe(4);
  });
});
