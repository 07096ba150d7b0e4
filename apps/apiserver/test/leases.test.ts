import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, expectStatus, unique, type Json } from './support/core.js';
import { stores } from './support/fixtures.js';

const leases = (ns: string, name?: string) =>
  `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases${name ? `/${name}` : ''}`;

function leaseBody(name: string, holder: string): Json {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name },
    spec: {
      holderIdentity: holder,
      leaseDurationSeconds: 15,
      acquireTime: '2025-01-01T10:00:00.123456Z',
      renewTime: '2025-01-01T10:00:00.123456Z',
      leaseTransitions: 0,
    },
  };
}

describe.each(stores)('leases (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start(redisUrl ? { redisUrl } : {});
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('does what leader election needs: create once, renew with the read version, lose on a stale one', async () => {
    const ns = unique('ns');
    const made = await create(server, leases(ns), leaseBody('kube-scheduler', 'a_1'));
    expect(made).toMatchObject({
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      spec: { holderIdentity: 'a_1', renewTime: '2025-01-01T10:00:00.123456Z' },
    });

    const second = await server.request('POST', leases(ns), { body: leaseBody('kube-scheduler', 'b_2') });
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({
      reason: 'AlreadyExists',
      message: 'leases.coordination.k8s.io "kube-scheduler" already exists',
    });

    const read = await expectStatus(server.request('GET', leases(ns, 'kube-scheduler')), 200);
    const renewed = await expectStatus(
      server.request('PUT', leases(ns, 'kube-scheduler'), {
        body: { ...read, spec: { ...(read['spec'] as Json), renewTime: '2025-01-01T10:00:02.000001Z' } },
      }),
      200,
    );
    expect(renewed['spec']).toMatchObject({ renewTime: '2025-01-01T10:00:02.000001Z' });

    // The other candidate still holds the version it read first.
    const stale = await server.request('PUT', leases(ns, 'kube-scheduler'), {
      body: { ...read, spec: { ...(read['spec'] as Json), holderIdentity: 'b_2', leaseTransitions: 1 } },
    });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on leases.coordination.k8s.io "kube-scheduler": the object has been modified; please apply your changes to the latest version and try again',
    });
    const after = await expectStatus(server.request('GET', leases(ns, 'kube-scheduler')), 200);
    expect(after['spec']).toMatchObject({ holderIdentity: 'a_1' });
  });

  it('refuses an update without a resourceVersion and an invalid spec', async () => {
    const ns = unique('ns');
    await create(server, leases(ns), leaseBody('l', 'a'));
    const blind = await server.request('PUT', leases(ns, 'l'), { body: leaseBody('l', 'b') });
    expect(blind.status).toBe(422);
    expect(blind.json).toMatchObject({
      message: expect.stringContaining(
        'metadata.resourceVersion: Invalid value: 0: must be specified for an update',
      ) as unknown,
    });
    const bad = await server.request('POST', leases(ns), {
      body: { ...leaseBody('neg', 'a'), spec: { leaseDurationSeconds: 0 } },
    });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({
      message:
        'Lease.coordination.k8s.io "neg" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    });
  });

  it('lists, selects by name and prints the holder in a table', async () => {
    const ns = unique('ns');
    await create(server, leases(ns), leaseBody('one', 'holder-1'));
    await create(server, leases(ns), leaseBody('two', 'holder-2'));
    const list = await expectStatus(
      server.request('GET', `${leases(ns)}?fieldSelector=metadata.name%3Dtwo`),
      200,
    );
    expect(list).toMatchObject({ kind: 'LeaseList', items: [{ metadata: { name: 'two' } }] });
    const table = await server.request('GET', leases(ns), {
      headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(table.json).toMatchObject({
      kind: 'Table',
      columnDefinitions: [{ name: 'Name' }, { name: 'Holder' }, { name: 'Age' }],
      rows: [
        { cells: ['one', 'holder-1', expect.any(String) as unknown] },
        { cells: ['two', 'holder-2', expect.any(String) as unknown] },
      ],
    });
  });
});
