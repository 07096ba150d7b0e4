/**
 * The garbage collector (--enable-garbage-collector, on by default) through the public API, on
 * both stores: DELETE's propagationPolicy and orphanDependents, the finalizers it adds, and what
 * the collector then does to dependents: background and foreground deletion, orphaning, owners
 * that exist with another UID, several owners, cluster-scoped owners, and owners that were gone
 * before the dependent was created.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApiServer } from '@keel/testing';
import {
  create,
  expectStatus,
  newNamespace,
  podBody,
  podPath,
  unique,
  MERGE,
  type Json,
} from './support/core.js';
import { stores } from './support/fixtures.js';
import {
  cmPath,
  createConfigMap,
  eventually,
  gone,
  meta,
  ownerRef,
  read,
  secret,
  secretPath,
} from './support/gc.js';

const HOLD = 'example.com/hold';
const CLUSTER_ROLES = '/apis/rbac.authorization.k8s.io/v1/clusterroles';

describe.each(stores)('garbage collector (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start(redisUrl ? { redisUrl } : {});
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('lists its post-start hook among the checks', async () => {
    const res = await server.request('GET', '/readyz?verbose');
    expect(res.text).toContain('[+]poststarthook/start-garbage-collector-controller ok\n');
  });

  it('background: deleting an owner deletes its dependent pods, configmaps and secrets', async () => {
    const ns = await newNamespace(server, 'gc-bg');
    const owner = await createConfigMap(server, ns, 'owner');
    const refs = { ownerReferences: [ownerRef(owner)] };
    await create(server, podPath(ns), podBody('dep-pod', {}, refs));
    await createConfigMap(server, ns, 'dep-cm', refs);
    await create(server, secretPath(ns), secret('dep-secret', refs));
    await createConfigMap(server, ns, 'bystander');

    // The default policy is background: the owner goes at once, with a Success Status.
    const status = await expectStatus(server.request('DELETE', cmPath(ns, 'owner')), 200);
    expect(status['kind']).toBe('Status');
    await gone(server, podPath(ns, 'dep-pod'));
    await gone(server, cmPath(ns, 'dep-cm'));
    await gone(server, secretPath(ns, 'dep-secret'));
    expect((await server.request('GET', cmPath(ns, 'bystander'))).status).toBe(200);
  });

  it('foreground: the owner stays, marked, until its blocking dependents are gone', async () => {
    const ns = unique('gc-fg');
    const owner = await createConfigMap(server, ns, 'owner');
    // The blocking dependent cannot go before its own finalizer does; the other does not block.
    await createConfigMap(server, ns, 'blocker', {
      ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })],
      finalizers: [HOLD],
    });
    await create(server, secretPath(ns), secret('loose', { ownerReferences: [ownerRef(owner)] }));

    const marked = await expectStatus(
      server.request('DELETE', cmPath(ns, 'owner'), { body: { propagationPolicy: 'Foreground' } }),
      200,
    );
    expect(marked['kind']).toBe('ConfigMap');
    expect(meta(marked)['finalizers']).toEqual(['foregroundDeletion']);
    expect(meta(marked)['deletionTimestamp']).toEqual(expect.any(String));

    await gone(server, secretPath(ns, 'loose'));
    // The blocker is being deleted (the collector deleted it) but its finalizer keeps it...
    await eventually('the blocker to be marked', async () =>
      meta(await read(server, cmPath(ns, 'blocker')))['deletionTimestamp'] ? true : undefined,
    );
    // ...and so the owner stays, still waiting.
    const waiting = await read(server, cmPath(ns, 'owner'));
    expect(meta(waiting)['finalizers']).toEqual(['foregroundDeletion']);
    expect(meta(waiting)['deletionTimestamp']).toBe(meta(marked)['deletionTimestamp']);

    await expectStatus(
      server.request('PATCH', cmPath(ns, 'blocker'), {
        body: { metadata: { finalizers: null } },
        contentType: MERGE,
      }),
      200,
    );
    await gone(server, cmPath(ns, 'blocker'));
    await gone(server, cmPath(ns, 'owner'));
  });

  it('foreground with dependents of dependents deletes the whole chain, bottom up', async () => {
    const ns = unique('gc-chain');
    const top = await createConfigMap(server, ns, 'top');
    const mid = await createConfigMap(server, ns, 'mid', {
      ownerReferences: [ownerRef(top, { blockOwnerDeletion: true })],
    });
    await createConfigMap(server, ns, 'leaf', {
      ownerReferences: [ownerRef(mid, { blockOwnerDeletion: true })],
      finalizers: [HOLD],
    });
    await expectStatus(server.request('DELETE', cmPath(ns, 'top', 'propagationPolicy=Foreground')), 200);
    // mid is deleted in the foreground too, and waits for leaf, which its finalizer keeps.
    const midMarked = await eventually('mid to wait for its dependents', async () => {
      const m = meta(await read(server, cmPath(ns, 'mid')));
      return m['deletionTimestamp'] ? m : undefined;
    });
    expect(midMarked['finalizers']).toEqual(['foregroundDeletion']);
    expect((await server.request('GET', cmPath(ns, 'top'))).status).toBe(200);
    await server.request('PATCH', cmPath(ns, 'leaf'), {
      body: { metadata: { finalizers: null } },
      contentType: MERGE,
    });
    await gone(server, cmPath(ns, 'leaf'));
    await gone(server, cmPath(ns, 'mid'));
    await gone(server, cmPath(ns, 'top'));
  });

  it.each([
    ['propagationPolicy=Orphan', 'Orphan'],
    ['orphanDependents=true', 'legacy'],
  ])('orphan (%s): dependents lose the reference and stay', async (query) => {
    const ns = await newNamespace(server, 'gc-orphan');
    const owner = await createConfigMap(server, ns, 'owner');
    const other = await createConfigMap(server, ns, 'other');
    await create(server, podPath(ns), podBody('kept-pod', {}, { ownerReferences: [ownerRef(owner)] }));
    await createConfigMap(server, ns, 'kept-cm', {
      ownerReferences: [ownerRef(owner), ownerRef(other)],
    });

    const marked = await expectStatus(server.request('DELETE', cmPath(ns, 'owner', query)), 200);
    expect(meta(marked)['finalizers']).toEqual(['orphan']);
    await gone(server, cmPath(ns, 'owner'));
    const pod = await read(server, podPath(ns, 'kept-pod'));
    expect(meta(pod)['ownerReferences']).toBeUndefined();
    // Only the deleted owner's reference goes.
    const cm = await read(server, cmPath(ns, 'kept-cm'));
    expect(meta(cm)['ownerReferences']).toEqual([ownerRef(other)]);
  });

  it('DELETE of a collection passes the policy to every object', async () => {
    const ns = unique('gc-coll');
    for (const i of [1, 2]) {
      const owner = await createConfigMap(server, ns, `owner-${i}`, { labels: { role: 'owner' } });
      await createConfigMap(server, ns, `dep-${i}`, { ownerReferences: [ownerRef(owner)] });
    }
    const list = await expectStatus(
      server.request('DELETE', cmPath(ns, undefined, 'labelSelector=role%3Downer&propagationPolicy=Orphan')),
      200,
    );
    for (const item of list['items'] as Json[]) expect(meta(item)['finalizers']).toEqual(['orphan']);
    for (const i of [1, 2]) {
      await gone(server, cmPath(ns, `owner-${i}`));
      expect(meta(await read(server, cmPath(ns, `dep-${i}`)))['ownerReferences']).toBeUndefined();
    }
  });

  it('an owner that exists with another UID counts as absent', async () => {
    const ns = unique('gc-uid');
    const owner = await createConfigMap(server, ns, 'owner');
    const stale = { ...ownerRef(owner), uid: '00000000-0000-0000-0000-000000000001' };
    await createConfigMap(server, ns, 'stale-dep', { ownerReferences: [stale] });
    await createConfigMap(server, ns, 'good-dep', { ownerReferences: [ownerRef(owner)] });
    await gone(server, cmPath(ns, 'stale-dep'));
    expect((await server.request('GET', cmPath(ns, 'good-dep'))).status).toBe(200);
    expect((await server.request('GET', cmPath(ns, 'owner'))).status).toBe(200);
  });

  it('a dependent of several owners stays until the last is gone, losing each reference', async () => {
    const ns = unique('gc-multi');
    const a = await createConfigMap(server, ns, 'owner-a');
    const b = await createConfigMap(server, ns, 'owner-b');
    await createConfigMap(server, ns, 'shared', { ownerReferences: [ownerRef(a), ownerRef(b)] });
    await expectStatus(server.request('DELETE', cmPath(ns, 'owner-a')), 200);
    await eventually('the reference to owner-a to go', async () => {
      const refs = meta(await read(server, cmPath(ns, 'shared')))['ownerReferences'] as Json[];
      return refs.length === 1 ? refs : undefined;
    }).then((refs) => expect(refs).toEqual([ownerRef(b)]));
    await expectStatus(server.request('DELETE', cmPath(ns, 'owner-b')), 200);
    await gone(server, cmPath(ns, 'shared'));
  });

  it('a dependent created after its owner was deleted is collected', async () => {
    const ns = unique('gc-late');
    const owner = await createConfigMap(server, ns, 'owner');
    await expectStatus(server.request('DELETE', cmPath(ns, 'owner')), 200);
    await createConfigMap(server, ns, 'late', { ownerReferences: [ownerRef(owner)] });
    await gone(server, cmPath(ns, 'late'));
  });

  it('cluster-scoped owners own namespaced dependents; a cluster-scoped object never names a namespaced owner', async () => {
    const ns = unique('gc-scope');
    const role = await create(server, CLUSTER_ROLES, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: unique('gc-owner') },
      rules: [],
    });
    await createConfigMap(server, ns, 'by-role', { ownerReferences: [ownerRef(role)] });
    // A namespaced owner that does not exist: a cluster-scoped dependent cannot be judged, so it stays.
    const odd = unique('gc-odd');
    await create(server, CLUSTER_ROLES, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: {
        name: odd,
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'nowhere', uid: 'u-1' }],
      },
      rules: [],
    });
    await expectStatus(server.request('DELETE', `${CLUSTER_ROLES}/${String(meta(role)['name'])}`), 200);
    await gone(server, cmPath(ns, 'by-role'));
    expect((await server.request('GET', `${CLUSTER_ROLES}/${odd}`)).status).toBe(200);
  });

  it('a second DELETE switches the finalizers; events never get them', async () => {
    const ns = unique('gc-switch');
    await createConfigMap(server, ns, 'held', { finalizers: [HOLD] });
    const first = await expectStatus(
      server.request('DELETE', cmPath(ns, 'held', 'propagationPolicy=Orphan')),
      200,
    );
    expect(meta(first)['finalizers']).toEqual([HOLD, 'orphan']);
    const second = await expectStatus(
      server.request('DELETE', cmPath(ns, 'held', 'propagationPolicy=Foreground')),
      200,
    );
    expect(meta(second)['finalizers']).toEqual([HOLD, 'foregroundDeletion']);
    expect(meta(second)['deletionTimestamp']).toBe(meta(first)['deletionTimestamp']);

    // An Event's policy is Unsupported: a foreground delete removes it at once.
    const events = `/api/v1/namespaces/${ns}/events`;
    await create(server, events, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e1' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: ns },
      reason: 'R',
      message: 'm',
    });
    const status = await expectStatus(
      server.request('DELETE', `${events}/e1?propagationPolicy=Foreground`),
      200,
    );
    expect(status['kind']).toBe('Status');
  });

  it('a pending legacy orphanDependents=false delete answers 202; both options at once are refused', async () => {
    const ns = unique('gc-opts');
    await createConfigMap(server, ns, 'held', { finalizers: [HOLD] });
    const accepted = await server.request('DELETE', cmPath(ns, 'held', 'orphanDependents=false'));
    expect(accepted.status).toBe(202);
    expect(meta(accepted.json as Json)['finalizers']).toEqual([HOLD]);
    const both = await server.request('DELETE', cmPath(ns, 'held'), {
      body: { propagationPolicy: 'Background', orphanDependents: true },
    });
    expect(both.status).toBe(422);
    expect((both.json as Json)['message']).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set',
    );
  });
});
