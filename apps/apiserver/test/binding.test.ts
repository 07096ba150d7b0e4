import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bindingBody,
  create,
  expectStatus,
  nodeBody,
  nodePath,
  podBody,
  podPath,
  newNamespace,
  unique,
  type Json,
} from './support/core.js';
import { statusText, stores } from './support/fixtures.js';

const SUCCESS = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","code":201}\n';
const conflict = (resource: string, name: string, message: string) =>
  statusText(409, 'Conflict', `Operation cannot be fulfilled on ${resource} "${name}": ${message}`, {
    name,
    kind: resource,
  });

describe.each(stores)('pods/binding and bindings (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  let node: string;
  beforeAll(async () => {
    server = await TestApiServer.start(redisUrl ? { redisUrl } : {});
    await server.ready();
    node = unique('node');
    await create(server, nodePath(), nodeBody(node));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const bind = (ns: string, pod: string, body: Json) =>
    server.request('POST', podPath(ns, pod, 'binding'), { body });

  it('assigns the pod to the node and answers 201 with a Success Status', async () => {
    const ns = await newNamespace(server);
    const pod = await create(server, podPath(ns), podBody('p1'));
    const uid = (pod['metadata'] as Json)['uid'] as string;
    const r = await bind(
      ns,
      'p1',
      bindingBody('p1', node, { namespace: ns, uid, annotations: { 'scheduler.example/why': 'fits' } }),
    );
    expect([r.status, r.text]).toEqual([201, SUCCESS]);
    const bound = await expectStatus(server.request('GET', podPath(ns, 'p1')), 200);
    expect(bound['spec']).toMatchObject({ nodeName: node });
    expect(bound['metadata']).toMatchObject({ annotations: { 'scheduler.example/why': 'fits' } });
    const conditions = (bound['status'] as Json)['conditions'] as Json[];
    expect(conditions).toEqual([
      {
        type: 'PodScheduled',
        status: 'True',
        lastProbeTime: null,
        lastTransitionTime: expect.stringMatching(/Z$/) as unknown,
      },
    ]);
    // The binding is no write of a field manager.
    expect((bound['metadata'] as Json)['managedFields']).toEqual((pod['metadata'] as Json)['managedFields']);
  });

  it('refuses a pod already assigned with the real 409', async () => {
    const ns = await newNamespace(server);
    await create(server, podPath(ns), podBody('twice'));
    expect((await bind(ns, 'twice', bindingBody('twice', node))).status).toBe(201);
    const again = await bind(ns, 'twice', bindingBody('twice', 'elsewhere'));
    expect([again.status, again.text]).toEqual([
      409,
      conflict('pods/binding', 'twice', `pod twice is already assigned to node "${node}"`),
    ]);
    expect(
      ((await expectStatus(server.request('GET', podPath(ns, 'twice')), 200))['spec'] as Json)['nodeName'],
    ).toBe(node);
  });

  it('lets exactly one of many concurrent bindings win', async () => {
    const ns = await newNamespace(server);
    await create(server, podPath(ns), podBody('race'));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => bind(ns, 'race', bindingBody('race', `node-${i}`))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(7);
  });

  it('checks the Binding: URL name, uid precondition, target, missing pod, namespace', async () => {
    const ns = await newNamespace(server);
    await create(server, podPath(ns), podBody('p'));
    const mismatch = await bind(ns, 'p', bindingBody('other', node));
    expect([mismatch.status, mismatch.json]).toEqual([
      400,
      expect.objectContaining({ message: 'name in URL does not match name in Binding object' }),
    ]);
    const staleUid = await bind(ns, 'p', bindingBody('p', node, { uid: 'not-the-uid' }));
    expect(staleUid.status).toBe(409);
    expect(staleUid.json).toMatchObject({ reason: 'Conflict', details: { kind: 'pods' } });
    expect((staleUid.json as Json)['message']).toMatch(
      /^Operation cannot be fulfilled on pods "p": Precondition failed: UID in precondition: not-the-uid/,
    );
    const noTarget = await bind(ns, 'p', {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name: 'p' },
      target: {},
    });
    expect(noTarget.status).toBe(500);
    expect(noTarget.json).toMatchObject({ message: 'target.name: Required value' });
    const wrongNs = await bind(ns, 'p', bindingBody('p', node, { namespace: 'elsewhere' }));
    expect(wrongNs.status).toBe(400);
    expect(wrongNs.json).toMatchObject({
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
    const missing = await bind(ns, 'ghost', bindingBody('ghost', node));
    expect([missing.status, missing.json]).toEqual([
      404,
      expect.objectContaining({ reason: 'NotFound', message: 'pods "ghost" not found' }),
    ]);
    const strict = await server.request('POST', podPath(ns, 'p', 'binding') + '?fieldValidation=Strict', {
      body: { ...bindingBody('p', node), extra: 1 },
    });
    expect(strict.status).toBe(400);
    expect(strict.json).toMatchObject({
      message:
        'Binding in version "v1" cannot be handled as a Binding: strict decoding error: unknown field "extra"',
    });
    // Nothing above assigned it.
    expect(
      ((await expectStatus(server.request('GET', podPath(ns, 'p')), 200))['spec'] as Json)['nodeName'],
    ).toBeUndefined();
  });

  it('does nothing on a dry run', async () => {
    const ns = await newNamespace(server);
    await create(server, podPath(ns), podBody('dry'));
    const r = await server.request('POST', podPath(ns, 'dry', 'binding') + '?dryRun=All', {
      body: bindingBody('dry', node),
    });
    expect(r.status).toBe(201);
    expect(
      ((await expectStatus(server.request('GET', podPath(ns, 'dry')), 200))['spec'] as Json)['nodeName'],
    ).toBeUndefined();
  });

  it('serves the legacy bindings collection with the same rules', async () => {
    const ns = await newNamespace(server);
    await create(server, podPath(ns), podBody('old'));
    const path = `/api/v1/namespaces/${ns}/bindings`;
    const r = await server.request('POST', path, { body: bindingBody('old', node) });
    expect([r.status, r.text]).toEqual([201, SUCCESS]);
    expect(
      ((await expectStatus(server.request('GET', podPath(ns, 'old')), 200))['spec'] as Json)['nodeName'],
    ).toBe(node);
    const again = await server.request('POST', path, { body: bindingBody('old', node) });
    expect([again.status, again.text]).toEqual([
      409,
      conflict('pods/binding', 'old', `pod old is already assigned to node "${node}"`),
    ]);
    expect((await server.request('GET', path)).status).toBe(405);
    // Bindings have no list, so there is no cluster-wide path at all.
    expect(
      (await server.request('POST', '/api/v1/bindings', { body: bindingBody('old', node) })).status,
    ).toBe(404);
  });

  it('takes only POST on pods/binding', async () => {
    const ns = await newNamespace(server);
    await create(server, podPath(ns), podBody('verbs'));
    for (const method of ['GET', 'PUT', 'DELETE']) {
      expect((await server.request(method, podPath(ns, 'verbs', 'binding'), { body: {} })).status).toBe(405);
    }
  });
});

describe.each(stores)('binding a pod that is being deleted (%s store)', (_store, redisUrl) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start(redisUrl ? { redisUrl } : {});
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses it with the real 409', async () => {
    const ns = await newNamespace(server);
    await create(server, podPath(ns), podBody('leaving', {}, { finalizers: ['example.com/hold'] }));
    // The finalizer keeps the deleted pod, marked with its deletionTimestamp.
    const marked = await expectStatus(server.request('DELETE', podPath(ns, 'leaving')), 200);
    expect((marked['metadata'] as Json)['deletionTimestamp']).toBeDefined();
    // Marking bumps the generation a pod tracks (kube's markAsDeleting).
    expect((marked['metadata'] as Json)['generation']).toBe(2);
    const r = await server.request('POST', podPath(ns, 'leaving', 'binding'), {
      body: bindingBody('leaving', 'n1'),
    });
    expect([r.status, r.text]).toEqual([
      409,
      conflict('pods/binding', 'leaving', 'pod leaving is being deleted, cannot be assigned to a host'),
    ]);
  });
});
