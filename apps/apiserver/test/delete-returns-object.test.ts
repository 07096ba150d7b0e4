import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, expectStatus, podBody, podPath, unique, type Json } from './support/core.js';

// kube-apiserver 1.20 answers a finished DELETE with the deleted object for the stores that set
// ReturnDeletedObject (pods, services, serviceaccounts, storageclasses, ...) and with a Success
// Status for the rest (configmaps, say).
describe('DELETE answers with the deleted object where the reference store returns it', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start();
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('returns the deleted pod itself, uid and all', async () => {
    const ns = unique('ns');
    // The ServiceAccount admission plugin wants the namespace's default account first.
    await create(server, `/api/v1/namespaces/${ns}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default' },
    });
    const made = await create(server, podPath(ns), podBody('p1'));
    const gone = await expectStatus(server.request('DELETE', podPath(ns, 'p1')), 200);
    expect(gone['kind']).toBe('Pod');
    expect(gone['apiVersion']).toBe('v1');
    const meta = gone['metadata'] as Json;
    expect(meta['name']).toBe('p1');
    expect(meta['uid']).toBe((made['metadata'] as Json)['uid']);
    await expectStatus(server.request('GET', podPath(ns, 'p1')), 404);
  });

  it('returns a deleted serviceaccount and a cluster-scoped storageclass', async () => {
    const ns = unique('ns');
    const sas = `/api/v1/namespaces/${ns}/serviceaccounts`;
    await create(server, sas, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } });
    const sa = await expectStatus(server.request('DELETE', `${sas}/sa`), 200);
    expect(sa['kind']).toBe('ServiceAccount');

    const scs = '/apis/storage.k8s.io/v1/storageclasses';
    const name = unique('sc');
    await create(server, scs, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name },
      provisioner: 'example.com/none',
    });
    const sc = await expectStatus(server.request('DELETE', `${scs}/${name}`), 200);
    expect([sc['kind'], sc['apiVersion']]).toEqual(['StorageClass', 'storage.k8s.io/v1']);
  });

  it('keeps the Success Status for a configmap, and 404 for a pod that is not there', async () => {
    const ns = unique('ns');
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    await create(server, cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    const gone = await expectStatus(server.request('DELETE', `${cms}/c`), 200);
    expect(gone).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'c', kind: 'configmaps' },
    });
    await expectStatus(server.request('DELETE', podPath(ns, 'absent')), 404);
  });
});
