import { TestApiServer, TestPKI } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERGE, nodeBody, nodePath, podBody, podPath, unique, type Json } from './support/core.js';
import { stores } from './support/fixtures.js';
import { eventually, rawRequest, type RawResponse } from './support/http.js';

// The Node authorization mode and the NodeRestriction admission plugin, for a node agent that
// authenticates with a client certificate (CN system:node:<name>, O system:nodes), and the
// AlwaysDeny admission plugin; through the built daemon on both stores.

const pki = new TestPKI();
const ca = pki.ca('node-e2e-ca');
const n1 = pki.client(ca, 'system:node:n1', ['system:nodes']);
afterAll(() => pki.cleanup());

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

function asNode(server: TestApiServer, method: string, path: string, body?: Json, contentType = MERGE) {
  return rawRequest(server, path, {
    method,
    token: null,
    cert: n1,
    ...(body ? { body: JSON.stringify(body), headers: { 'content-type': contentType } } : {}),
  });
}

function message(r: RawResponse): string {
  return (JSON.parse(r.text) as { message: string }).message;
}

describe.each(stores)('Node authorization and NodeRestriction (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        '--authorization-mode=Node',
        '--enable-admission-plugins=NodeRestriction',
        `--client-ca-file=${ca.certFile}`,
      ],
      ...(redisUrl ? { redisUrl } : {}),
    });
    await server.ready();
    for (const name of ['n1', 'n2']) {
      expect((await server.request('POST', nodePath(), { body: nodeBody(name) })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await server.stop();
  });

  it('a node reads its Node and updates its status, but may not modify another node', async () => {
    expect((await asNode(server, 'GET', nodePath('n1'))).status).toBe(200);
    const status = { status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }] } };
    const own = await asNode(server, 'PATCH', nodePath('n1', 'status'), status);
    expect(own.status).toBe(200);
    const other = await asNode(server, 'PATCH', nodePath('n2', 'status'), status);
    expect(other.status).toBe(403);
    expect(JSON.parse(other.text)).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    });
    const relabel = await asNode(server, 'PATCH', nodePath('n1'), {
      metadata: { labels: { 'node-restriction.kubernetes.io/pool': 'gold' } },
    });
    expect([relabel.status, message(relabel)]).toEqual([
      403,
      'nodes "n1" is forbidden: is not allowed to modify labels: node-restriction.kubernetes.io/pool',
    ]);
  });

  it('reads a ConfigMap only while a pod bound to it uses it; updates only its own pods’ status', async () => {
    const [mine, theirs] = [unique('cfg-mine'), unique('cfg-theirs')];
    for (const name of [mine, theirs]) {
      const r = await server.request('POST', CONFIGMAPS, { body: { metadata: { name }, data: { k: 'v' } } });
      expect(r.status).toBe(201);
    }
    const [p1, p2] = [unique('p1'), unique('p2')];
    const volume = (cm: string) => ({ volumes: [{ name: 'cfg', configMap: { name: cm } }] });
    for (const [pod, node, cm] of [
      [p1, 'n1', mine],
      [p2, 'n2', theirs],
    ] as const) {
      const r = await server.request('POST', podPath('default'), {
        body: podBody(pod, { nodeName: node, ...volume(cm) }),
      });
      expect(r.status).toBe(201);
    }

    // The graph follows the pods through an informer: poll until it has seen them.
    const readMine = await eventually(
      () => asNode(server, 'GET', `${CONFIGMAPS}/${mine}`),
      (r) => r.status === 200,
    );
    expect(readMine.status).toBe(200);
    const readTheirs = await asNode(server, 'GET', `${CONFIGMAPS}/${theirs}`);
    expect([readTheirs.status, message(readTheirs)]).toEqual([
      403,
      `configmaps "${theirs}" is forbidden: User "system:node:n1" cannot get resource "configmaps" in API group "" in the namespace "default": no relationship found between node 'n1' and this object`,
    ]);

    const podStatus = { status: { phase: 'Running' } };
    expect((await asNode(server, 'PATCH', podPath('default', p1, 'status'), podStatus)).status).toBe(200);
    const other = await asNode(server, 'PATCH', podPath('default', p2, 'status'), podStatus);
    expect([other.status, message(other)]).toEqual([
      403,
      `pods "${p2}" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself`,
    ]);

    const deleted = await server.request('DELETE', podPath('default', p1));
    expect(deleted.status).toBe(200);
    const lost = await eventually(
      () => asNode(server, 'GET', `${CONFIGMAPS}/${mine}`),
      (r) => r.status === 403,
    );
    expect([lost.status, message(lost)]).toEqual([
      403,
      `configmaps "${mine}" is forbidden: User "system:node:n1" cannot get resource "configmaps" in API group "" in the namespace "default": no relationship found between node 'n1' and this object`,
    ]);
  });

  it('a node writes only its own Lease in the node-lease namespace', async () => {
    const leases = '/apis/coordination.k8s.io/v1/namespaces/platform-node-lease/leases';
    const lease = (name: string) => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name },
      spec: { holderIdentity: name, leaseDurationSeconds: 40 },
    });
    const own = await asNode(server, 'POST', leases, lease('n1'), 'application/json');
    expect(own.status).toBe(201);
    const other = await asNode(server, 'POST', leases, lease('n2'), 'application/json');
    expect([other.status, message(other)]).toEqual([
      403,
      'leases.coordination.k8s.io "n2" is forbidden: can only access node lease with the same name as the requesting node',
    ]);
    const elsewhere = await asNode(
      server,
      'GET',
      '/apis/coordination.k8s.io/v1/namespaces/default/leases/n1',
    );
    expect([elsewhere.status, message(elsewhere)]).toEqual([
      403,
      'leases.coordination.k8s.io "n1" is forbidden: User "system:node:n1" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "default": can only access leases in the "platform-node-lease" system namespace',
    ]);
  });

  it('nothing the node rules leave out is allowed', async () => {
    const r = await asNode(
      server,
      'POST',
      '/api/v1/namespaces',
      { metadata: { name: unique('ns') } },
      'application/json',
    );
    expect([r.status, message(r)]).toEqual([
      403,
      'namespaces is forbidden: User "system:node:n1" cannot create resource "namespaces" in API group "" at the cluster scope',
    ]);
  });
});

describe.each(stores)('--enable-admission-plugins=AlwaysDeny (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: ['--enable-admission-plugins=AlwaysDeny'],
      ...(redisUrl ? { redisUrl } : {}),
    });
    await server.ready();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('refuses every write with the real 403, and still serves reads', async () => {
    const name = unique('ns');
    const r = await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name } } });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: `namespaces "${name}" is forbidden: admission control is denying all modifications`,
      details: { name, kind: 'namespaces' },
    });
    expect((await server.request('GET', '/api/v1/namespaces/default')).status).toBe(200);
  });
});
