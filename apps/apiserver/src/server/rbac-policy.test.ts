/**
 * The default-policy step and the aggregation controller against real stores (the memory store
 * and Redis), including several API servers' worth of them on one Redis at once.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { rbac } from '@keel/auth';
import { createMemoryStorage, createRedisStorage, type Storage } from '@keel/storage';
import { ClusterRoleAggregationController } from './clusterrole-aggregation.js';
import { reconcileDefaultPolicy } from './rbac-bootstrap.js';

type ClusterRole = rbac.ClusterRole;
type Binding = rbac.ClusterRoleBinding;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One store per "API server"; Redis ones share a prefix, as servers of one cluster do. */
function storeFactory(kind: 'memory' | 'redis'): () => Promise<Storage> {
  const prefix = `/rbac-test-${randomBytes(4).toString('hex')}`;
  let memory: Storage | undefined;
  return async () => {
    const storage =
      kind === 'memory'
        ? (memory ??= createMemoryStorage())
        : await createRedisStorage({ urls: [inject('redisUrl')], prefix });
    cleanups.push(() => storage.close());
    return storage;
  };
}

async function eventually(check: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return await check();
    } catch (err) {
      if (i > 200) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

function startAggregation(storage: Storage): Promise<void> {
  const ac = new AbortController();
  cleanups.push(async () => ac.abort());
  return new ClusterRoleAggregationController(storage, { retryDelayMs: 50 }).start(ac.signal);
}

const hasRule = (role: ClusterRole, resource: string) =>
  (role.rules ?? []).some((r) => r.resources?.includes(resource));

describe.each(['memory', 'redis'] as const)('default RBAC policy (%s store)', (kind) => {
  it('creates every default object once; a second run writes nothing', async () => {
    const storage = await storeFactory(kind)();
    await reconcileDefaultPolicy(storage);
    const policy = rbac.bootstrapPolicy();
    const roles = await storage.list<ClusterRole>('/clusterroles');
    expect(roles.items.map((r) => r.metadata.name).sort()).toEqual(
      policy.clusterRoles.map((r) => r.metadata.name).sort(),
    );
    expect((await storage.list('/clusterrolebindings')).items).toHaveLength(
      policy.clusterRoleBindings.length,
    );
    const reader = await storage.get<ClusterRole>(
      '/roles/platform-system/extension-apiserver-authentication-reader',
    );
    expect(reader.metadata.uid).toBeTruthy();
    expect(reader.metadata['creationTimestamp']).toBeTruthy();
    await storage.get('/rolebindings/platform-public/system:controller:bootstrap-signer');

    const before = await storage.currentResourceVersion();
    await reconcileDefaultPolicy(storage);
    expect(await storage.currentResourceVersion()).toBe(before);
  });

  it('keeps what users changed, restores what they removed, and replaces a rebound binding', async () => {
    const storage = await storeFactory(kind)();
    await reconcileDefaultPolicy(storage);
    const userRule = { verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] };
    await storage.guaranteedUpdate<ClusterRole>('/clusterroles/system:heapster', (r) => ({
      ...r!,
      rules: [userRule],
    }));
    await storage.guaranteedUpdate<ClusterRole>('/clusterroles/system:discovery', (r) => ({
      ...r!,
      metadata: { ...r!.metadata, annotations: { [rbac.AUTOUPDATE_ANNOTATION]: 'false' } },
      rules: [{ verbs: ['get'], nonResourceURLs: ['/version'] }],
    }));
    await storage.delete('/clusterroles/view');
    const rebound = await storage.guaranteedUpdate<Binding>(
      '/clusterrolebindings/system:basic-user',
      (b) => ({
        ...b!,
        roleRef: { ...b!.roleRef, name: 'view' },
      }),
    );

    await reconcileDefaultPolicy(storage);

    const heapster = await storage.get<ClusterRole>('/clusterroles/system:heapster');
    expect(heapster.rules?.[0]).toEqual(userRule);
    expect(hasRule(heapster, 'nodes')).toBe(true);
    const discovery = await storage.get<ClusterRole>('/clusterroles/system:discovery');
    expect(discovery.rules).toEqual([{ verbs: ['get'], nonResourceURLs: ['/version'] }]);
    const view = await storage.get<ClusterRole>('/clusterroles/view');
    expect(view.aggregationRule?.clusterRoleSelectors).toHaveLength(1);
    const basic = await storage.get<Binding>('/clusterrolebindings/system:basic-user');
    expect(basic.roleRef.name).toBe('system:basic-user');
    expect(basic.metadata.uid).not.toBe(rebound.metadata.uid);
  });

  it('converges when several API servers reconcile at once', async () => {
    const next = storeFactory(kind);
    const stores = await Promise.all([next(), next(), next()]);
    await Promise.all(stores.map((s) => reconcileDefaultPolicy(s)));
    const admin = await stores[0].get<ClusterRole>('/clusterroles/cluster-admin');
    expect(admin.rules).toHaveLength(2);
    const before = await stores[0].currentResourceVersion();
    await Promise.all(stores.map((s) => reconcileDefaultPolicy(s)));
    expect(await stores[0].currentResourceVersion()).toBe(before);
  });
});

describe.each(['memory', 'redis'] as const)('cluster-role aggregation (%s store)', (kind) => {
  it('fills admin, edit and view, follows labelled roles, and several controllers agree', async () => {
    const next = storeFactory(kind);
    const [a, b] = [await next(), await next()];
    await reconcileDefaultPolicy(a);
    await Promise.all([startAggregation(a), startAggregation(b)]);

    const get = (name: string) => a.get<ClusterRole>(`/clusterroles/${name}`);
    // Started after the defaults were written, the first pass has filled the chain already.
    const admin = await get('admin');
    expect(hasRule(admin, 'rolebindings')).toBe(true);
    expect(hasRule(admin, 'pods/exec')).toBe(true);
    expect(hasRule(admin, 'pods/log')).toBe(true);
    expect(hasRule(await get('view'), 'pods/exec')).toBe(false);
    // The reference's order: selector by selector, matching roles by name, each rule once.
    expect((await get('view')).rules).toEqual((await get('system:aggregate-to-view')).rules);

    await a.create('/clusterroles/widgets', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'widgets', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ verbs: ['get'], apiGroups: ['example.com'], resources: ['widgets'] }],
    });
    await eventually(async () => {
      for (const name of ['view', 'edit', 'admin']) expect(hasRule(await get(name), 'widgets')).toBe(true);
    });

    await a.guaranteedUpdate<ClusterRole>('/clusterroles/widgets', (r) => ({
      ...r!,
      metadata: { ...r!.metadata, labels: {} },
    }));
    await eventually(async () => {
      for (const name of ['view', 'edit', 'admin']) expect(hasRule(await get(name), 'widgets')).toBe(false);
    });

    // Both controllers settle on the same rules: nothing more is written.
    const settled = await a.currentResourceVersion();
    await new Promise((r) => setTimeout(r, 300));
    expect(await a.currentResourceVersion()).toBe(settled);
  });

  it('aggregates with matchExpressions and leaves a role with an invalid selector alone', async () => {
    const storage = await storeFactory(kind)();
    const role = (name: string, extra: Partial<ClusterRole>): ClusterRole => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name },
      ...extra,
    });
    await storage.create(
      '/clusterroles/tier-reader',
      role('tier-reader', {
        aggregationRule: {
          clusterRoleSelectors: [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] }],
        },
      }),
    );
    await storage.create(
      '/clusterroles/broken',
      role('broken', {
        aggregationRule: {
          clusterRoleSelectors: [{ matchExpressions: [{ key: 'tier', operator: 'Near' }] }],
        },
        rules: [{ verbs: ['list'], apiGroups: [''], resources: ['mine'] }],
      }),
    );
    await storage.create(
      '/clusterroles/tier-b',
      role('tier-b', {
        metadata: { name: 'tier-b', labels: { tier: 'b' } },
        rules: [{ verbs: ['get'], apiGroups: [''], resources: ['b'] }],
      }),
    );
    await storage.create(
      '/clusterroles/tier-a',
      role('tier-a', {
        metadata: { name: 'tier-a', labels: { tier: 'a' } },
        rules: [
          { verbs: ['get'], apiGroups: [''], resources: ['a'] },
          { verbs: ['get'], apiGroups: [''], resources: ['b'] },
        ],
      }),
    );
    await startAggregation(storage);
    expect((await storage.get<ClusterRole>('/clusterroles/tier-reader')).rules).toEqual([
      { verbs: ['get'], apiGroups: [''], resources: ['a'] },
      { verbs: ['get'], apiGroups: [''], resources: ['b'] },
    ]);
    expect((await storage.get<ClusterRole>('/clusterroles/broken')).rules).toEqual([
      { verbs: ['list'], apiGroups: [''], resources: ['mine'] },
    ]);
  });
});
